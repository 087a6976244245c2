import type { InjectionKey, Ref } from 'vue'
import type { BranchPosition } from '~/db/message-branches'

/**
 * What a message of the open chat can do to the chat's tree, given by the page to every message of its list:
 * edit and resend, regenerate, switch branch, fork into a new chat, delete. None of them runs while a reply streams.
 */
export interface MessageTreeActions {
  /** A reply is being written: every action waits. */
  busy: Readonly<Ref<boolean>>
  /** The message's place among its siblings, when it has any. */
  positionOf: (messageId: string) => BranchPosition | undefined
  /** Sends an edited copy of a user message as a new branch. Resolves false when nothing was sent. */
  edit: (messageId: string, text: string) => Promise<boolean>
  /** A new reply beside this one. */
  regenerate: (messageId: string) => Promise<void>
  /** Shows the branch of this sibling. */
  switchTo: (messageId: string) => Promise<void>
  /** Opens a new chat holding the conversation up to this message. */
  fork: (messageId: string) => Promise<void>
  /** Deletes this message and everything after it on its branches. */
  remove: (messageId: string) => Promise<void>
}

export const messageTreeActionsKey: InjectionKey<MessageTreeActions> = Symbol('message-tree-actions')
