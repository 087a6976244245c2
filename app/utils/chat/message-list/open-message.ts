import type { InjectionKey } from 'vue'

/** Opens a chat at one of its messages (the sidebar's search does the same); provided by the chat page. */
export const openMessageKey: InjectionKey<(threadId: string, messageId: string) => Promise<void>> = Symbol('plugboard.openMessage')
