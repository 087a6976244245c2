import type { InjectionKey } from 'vue'
import type { TurnMountQueue } from './turn-mount-queue'

/** The message list's turn mounting queue, for its turns (`ChatMessageTurn`). */
export const turnMountQueueKey: InjectionKey<TurnMountQueue> = Symbol('turn-mount-queue')
