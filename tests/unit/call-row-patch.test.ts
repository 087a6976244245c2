import { describe, expect, it } from 'vitest'
import { foldLoopEvents } from '#shared/loop/conversation-state'
import type { LoopEvent } from '#shared/loop/loop-event'
import { callRowPatch } from '~/db/call-row-patch'

const call = { id: 'c1', type: 'function' as const, function: { name: 'search', arguments: '{"q":"a"}' } }
const result = { callId: 'c1', name: 'search', arguments: '{"q":"b"}', status: 'done' as const, content: 'found', fullContent: 'found all', truncated: false, startedAt: 1, finishedAt: 2 }

/** The patch each event asks of the call's row, in order. */
function patches(events: LoopEvent[]) {
  return events.flatMap((_, index) => {
    const after = foldLoopEvents(events.slice(0, index + 1)).calls.c1
    return after ? [callRowPatch(foldLoopEvents(events.slice(0, index)).calls.c1, after, 7)] : []
  })
}

describe('callRowPatch: a tool row gets what changed in its call', () => {
  it('writes the arguments, the wait, the user\'s edit, the run, its progress and its result, each once', () => {
    expect(patches([
      { type: 'step-start', step: 1 },
      { type: 'tool-call-queued', step: 1, index: 0, callId: 'c1', toolName: 'search' },
      { type: 'step-finish', step: 1, message: { role: 'assistant', content: null, tool_calls: [call] }, finishReason: 'tool_calls' },
      { type: 'tool-call-awaiting-approval', step: 1, call },
      { type: 'tool-call-approval', step: 1, callId: 'c1', toolName: 'search', decision: 'allowed-once', arguments: '{"q":"b"}', askedArguments: '{"q":"a"}', decidedAt: 0 },
      { type: 'tool-call-running', step: 1, call: { ...call, function: { ...call.function, arguments: '{"q":"b"}' } } },
      { type: 'tool-call-status', step: 1, callId: 'c1', text: 'halfway' },
      { type: 'tool-call-done', step: 1, result },
    ])).toEqual([
      {},
      { toolArguments: '{"q":"a"}' },
      { toolStatus: 'awaiting-approval', status: 'pending' },
      { toolArguments: '{"q":"b"}' },
      { toolStatus: 'running', status: 'pending', startedAt: 7 },
      { toolStatusText: 'halfway' },
      expect.objectContaining({ status: 'complete', toolStatus: 'done', content: 'found', toolResultFull: 'found all', toolStatusText: undefined }),
    ])
  })
})
