// What deciding each call costs the loop: one step with CALLS parallel calls to a no-op tool, run by runChatLoop on
// an in-process scripted model, with every tool 'auto' (one tool-call-approval event per call), and with every tool
// 'ask' and a hook that answers at once (awaiting + approval events, the wait itself). Per-call milliseconds.
// Run: `node --import tsx bench/approval.bench.ts` (or `npm run bench approval`).
import { pathToFileURL } from 'node:url'
import type { ChatModel } from '../shared/loop/chat-model'
import { runChatLoop } from '../shared/loop/run-chat-loop'
import type { StreamEvent } from '../shared/stream/stream-event'
import { toolSetFromArray } from '../shared/tools/tool-set'
import type { ToolApprovalPolicy } from '../shared/types/server-tools'
import { measure, printTable, writeResult } from './lib/index'

const CALLS = 200

function scriptedModel(): ChatModel {
  let requests = 0
  return {
    async* stream() {
      if (requests++ > 0) {
        yield { type: 'text-delta', text: 'done' } as StreamEvent
        yield { type: 'finish', reason: 'stop' } as StreamEvent
        return
      }
      for (let index = 0; index < CALLS; index++) {
        yield { type: 'tool-call-delta', index, id: `c${index}`, name: 'noop', argumentsDelta: `{"n":${index}}` } as StreamEvent
      }
      yield { type: 'finish', reason: 'tool_calls' } as StreamEvent
    },
  }
}

const tools = toolSetFromArray([{ definition: { type: 'function', function: { name: 'noop', parameters: { type: 'object', properties: { n: { type: 'integer' } } } } }, handler: () => 'ok' }])

async function run(policy: ToolApprovalPolicy | undefined) {
  let events = 0
  const result = await runChatLoop({
    model: scriptedModel(), messages: [{ role: 'user', content: 'go' }], tools, threadId: 'bench', repeatLimit: CALLS + 1,
    ...(policy && { toolPolicy: () => policy, approveToolCall: async () => ({ decision: 'allowed-once' as const }) }),
    onEvent: () => void events++,
  })
  if (result.finishReason !== 'stop') throw new Error(`the loop ended with ${result.finishReason}`)
  return events
}

/** Per-call milliseconds without a policy lookup, with every tool 'auto', and with every tool 'ask' answered at once. */
export async function runApprovalBench() {
  const rows: Record<string, string | number>[] = []
  for (const [label, policy] of [['no policy (default auto)', undefined], ['auto', 'auto'], ['ask, answered at once', 'ask']] as const) {
    const events = await run(policy)
    const timing = await measure(() => run(policy), { runs: 15, warmup: 5 })
    rows.push({ case: label, calls: CALLS, events, 'median ms': timing.medianMs, 'ms per call': timing.medianMs / CALLS })
  }
  printTable(`One step with ${CALLS} parallel calls`, rows)
  await writeResult('approval', rows)
  return rows
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runApprovalBench()
