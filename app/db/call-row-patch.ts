import type { CallState } from '#shared/loop/conversation-state'
import type { MessagePatch } from './messages'
import { toolResultPatch } from './tool-result-patch'

/**
 * What a call's tool row needs written after the fold moved the call from `before` to `after`: its result once it
 * ended; else the status the card shows while it waits or runs, the arguments that will run, its progress text.
 * Empty when nothing the row shows changed ('cleared' keeps the card as it was until the call starts).
 */
export function callRowPatch(before: CallState | undefined, after: CallState, now = Date.now()): MessagePatch {
  if (after.result) return after.result === before?.result ? {} : toolResultPatch(after.result)
  const patch: MessagePatch = {}
  if (after.status !== before?.status && (after.status === 'awaiting-approval' || after.status === 'running')) {
    patch.toolStatus = after.status
    patch.status = 'pending'
    if (after.status === 'running') patch.startedAt = now
  }
  const argumentsText = after.call?.function.arguments
  if (argumentsText !== undefined && argumentsText !== before?.call?.function.arguments) patch.toolArguments = argumentsText
  if (after.statusText !== before?.statusText) patch.toolStatusText = after.statusText
  return patch
}
