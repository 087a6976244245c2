import type { MessageStatus } from './types'

/**
 * A reply still being written: stored before its request was answered (`pending`) or with tokens arriving
 * (`streaming`). What the app does not yet treat as the reply: not synced, not shared, not measured or prerendered,
 * shown as live, and marked `interrupted` at start-up when the page that wrote it is gone. No Dexie here: the message
 * list's modules read it without loading the database.
 */
export type WritingStatus = Extract<MessageStatus, 'pending' | 'streaming'>
export const WRITING_STATUSES: readonly WritingStatus[] = ['pending', 'streaming']

export function isWriting(status: MessageStatus | undefined): status is WritingStatus {
  return status === 'pending' || status === 'streaming'
}
