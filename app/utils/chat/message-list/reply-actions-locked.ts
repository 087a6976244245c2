import type { InjectionKey, Ref } from 'vue'

/**
 * Provided by the chat page: true while another tab writes a reply in the open chat, so the buttons that would start
 * one (Retry, Continue) are disabled wherever they are in the message list.
 */
export const replyActionsLockedKey: InjectionKey<Readonly<Ref<boolean>>> = Symbol('plugboard:reply-actions-locked')
