import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { repairToolHistory } from '#shared/history/repair-tool-history'
import { isReplayableToolCall } from '#shared/history/tool-call-shape'
import { validateStrictHistory } from '#shared/history/validate-strict-history'
import { cancelledToolResult } from '#shared/tools/execute-tool-calls'
import type { AssistantMessage, ModelMessage, ToolCall } from '#shared/types/chat'
import { stateAfterReset, statesAtEveryOffset } from './helpers/cut-stream-states'
import type { CutState } from './helpers/cut-stream-states'

const corpusDirectory = resolve(process.cwd(), 'tests/fixtures/corpora/sse-streams')
interface IndexEntry { file: string, features: string[] }
const toolStreams = (JSON.parse(readFileSync(resolve(corpusDirectory, 'index.json'), 'utf8')).streams as IndexEntry[])
  .filter(entry => entry.features.includes('tool_calls'))

/**
 * The history the next turn replays after a step that stopped in `state`, as the loop and the recorder leave it:
 * the assistant message (kept when it has text or calls), a 'cancelled' result for each of its calls when
 * `answered` (Stop or a provider error), none when the tab closed first; then the user's next message.
 */
function historyAfterCut(state: CutState, answered: boolean): ModelMessage[] {
  const history: ModelMessage[] = [{ role: 'user', content: 'Use the tools, please.' }]
  const assistant: AssistantMessage = {
    role: 'assistant',
    content: state.text === '' ? null : state.text,
    ...(state.calls.length > 0 ? { tool_calls: state.calls } : {}),
  }
  if (assistant.content !== null || assistant.tool_calls) history.push(assistant)
  if (answered) {
    for (const result of state.calls.map(call => cancelledToolResult(call, 0))) {
      history.push({ role: 'tool', tool_call_id: result.callId, name: result.name, content: result.content })
    }
  }
  history.push({ role: 'user', content: 'Go on.' })
  return history
}

const replayedCalls = (history: ModelMessage[]): ToolCall[] =>
  history.flatMap(message => (message.role === 'assistant' ? message.tool_calls ?? [] : []))

const figure = { streams: 0, offsets: 0, histories: 0, failures: 0, brokenBefore: 0, brokenBeforeAnswered: 0, violationsBefore: 0, intactCallsKept: 0 }

afterAll(() => {
  console.log(`history repair on the sse-streams corpus: ${figure.streams} tool-call streams × every byte offset = ${figure.offsets} cuts, `
    + `${figure.histories} histories (answered and unanswered); before repair ${figure.brokenBefore} histories broke the rules `
    + `(${figure.violationsBefore} violations; ${figure.brokenBeforeAnswered} of the ${figure.offsets} the loop stores today); after repair ${figure.failures} failures; ${figure.intactCallsKept} whole calls kept as they were`)
})

describe('a tool-call stream cut at every byte offset leaves a history a strict server accepts', () => {
  it('covers every tool-call stream of the corpus', () => {
    expect(toolStreams.length).toBe(32)
  })

  it.each(toolStreams.map(entry => [entry.file]))('%s', async (file) => {
    const bytes = new Uint8Array(readFileSync(resolve(corpusDirectory, file)))
    const { atOffset, finished } = await statesAtEveryOffset(bytes)
    const failures: string[] = []

    atOffset.forEach((state, offset) => {
      for (const answered of [true, false]) {
        const history = historyAfterCut(state, answered)
        const before = validateStrictHistory(history)
        if (before.length > 0) figure.brokenBefore++
        if (before.length > 0 && answered) figure.brokenBeforeAnswered++
        figure.violationsBefore += before.length
        const repaired = repairToolHistory(history)
        const after = validateStrictHistory(repaired)
        if (after.length > 0) failures.push(`offset ${offset} (${answered ? 'answered' : 'unanswered'}): ${after.map(v => v.message).join('; ')}`)
        // Repair must not cost the model a call it made whole.
        const kept = replayedCalls(repaired)
        for (const call of state.calls.filter(isReplayableToolCall)) {
          const expectedArguments = call.function.arguments.trim() === '' ? '{}' : call.function.arguments
          const same = kept.some(other => other.function.name === call.function.name && other.function.arguments === expectedArguments)
          if (same) figure.intactCallsKept++
          else failures.push(`offset ${offset}: whole call ${call.function.name} was lost`)
        }
        figure.histories++
      }
    })
    figure.streams++
    figure.offsets += atOffset.length
    figure.failures += failures.length
    expect(failures.slice(0, 5)).toEqual([])

    // A stream that ended on its own with whole calls needs no repair at all.
    if (finished.calls.every(isReplayableToolCall)) {
      const history = historyAfterCut(finished, true)
      expect(repairToolHistory(history)).toEqual(history)
    }
    // The per-byte states are what a reset connection at that offset really leaves.
    for (const offset of [0, 1, bytes.length >> 2, bytes.length >> 1, (bytes.length * 3) >> 2, bytes.length - 1]) {
      expect(await stateAfterReset(bytes, offset)).toEqual(atOffset[offset])
    }
  })

  it('would fail without the repair: a stream cut mid-arguments leaves a history a strict server refuses', async () => {
    const file = toolStreams.find(entry => entry.features.includes('arguments_split_across_chunks'))!.file
    const { atOffset } = await statesAtEveryOffset(new Uint8Array(readFileSync(resolve(corpusDirectory, file))))
    const rules = new Set(atOffset.flatMap(state => validateStrictHistory(historyAfterCut(state, true)).map(violation => violation.rule)))
    expect(rules).toContain('tool-call-arguments')
  })
})
