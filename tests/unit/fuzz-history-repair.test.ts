// Property tests of history repair: any list of messages (stored rows may be cut, duplicated, reordered or
// corrupt) is turned, without throwing, into a history a strict OpenAI-compatible server accepts, no bigger than
// the input and an answer per call kept.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { fuzzOptions } from '~~/tests/unit/helpers/fuzz-options'
import { repairToolHistory } from '#shared/history/repair-tool-history'
import { validateStrictHistory } from '#shared/history/validate-strict-history'
import type { ModelMessage } from '#shared/types/chat'

// Small pools, so that ids repeat, answers meet their calls (or the wrong ones) and names are often broken.
const id = fc.constantFrom('call_1', 'call_2', 'call_1_2', 'a', '', undefined, 7, null)
const name = fc.constantFrom('get_weather', 'search', 'functions.get_weather', '', ' ', 'x'.repeat(70), 'ünïcode', undefined, 42)
const argumentsText = fc.constantFrom('{}', '', '  ', '{"city":"Oslo"}', '{"city":', '[]', 'null', '"text"', '{"a":1} x', undefined, 3)
const content = fc.oneof(fc.string({ maxLength: 20 }), fc.constant(null), fc.constant(''), fc.constant(undefined),
  fc.constant([{ type: 'text', text: 'part' }]), fc.jsonValue({ maxDepth: 2 }))

const toolCall = fc.oneof(
  { weight: 8, arbitrary: fc.record({ id, type: fc.constantFrom('function', 'tool', undefined), function: fc.record({ name, arguments: argumentsText }) }) },
  { weight: 1, arbitrary: fc.constantFrom(null, 'call', {}, { function: null }, { id: 'call_1' }) },
)

const message = fc.oneof(
  { weight: 2, arbitrary: fc.record({ role: fc.constantFrom('user', 'system'), content }) },
  { weight: 4, arbitrary: fc.record({ role: fc.constant('assistant'), content, tool_calls: fc.option(fc.array(toolCall, { maxLength: 4 }), { nil: undefined }) }, { requiredKeys: ['role'] }) },
  { weight: 4, arbitrary: fc.record({ role: fc.constant('tool'), tool_call_id: id, name: fc.option(name, { nil: undefined }), content }, { requiredKeys: ['role'] }) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, 42, 'user', {}, { role: 'developer', content: 'x' }, { role: 'function', name: 'f', content: 'y' }) },
)

const history = fc.array(message, { maxLength: 30 }) as fc.Arbitrary<ModelMessage[]>

function callsIn(messages: readonly unknown[]): number {
  return messages.reduce<number>((sum, item) => {
    const calls = (item as { tool_calls?: unknown } | null)?.tool_calls
    return sum + (Array.isArray(calls) ? calls.length : 0)
  }, 0)
}

describe('history repair, fuzzed', () => {
  it('turns any message list into one a strict server accepts, without throwing (20,000 runs)', () => {
    fc.assert(fc.property(history, (messages) => {
      const repaired = repairToolHistory(messages)
      expect(validateStrictHistory(repaired)).toEqual([])
    }), fuzzOptions(20_000))
  })

  it('gives at most one message per message and call given, and no more text than it was given plus its notes (10,000 runs)', () => {
    fc.assert(fc.property(history, (messages) => {
      const repaired = repairToolHistory(messages)
      const calls = callsIn(messages)
      expect(repaired.length).toBeLessThanOrEqual(messages.length + calls)
      expect(callsIn(repaired)).toBeLessThanOrEqual(calls)
      // A call may gain a note for its answer (~60 characters), its name again and an id suffix: 200 at most.
      const size = (value: unknown) => JSON.stringify(value ?? null)?.length ?? 0
      expect(size(repaired)).toBeLessThanOrEqual(size(messages) + 200 * (calls + 1))
    }), fuzzOptions(10_000))
  })

  it('leaves a history it repaired as it is (4,000 runs)', () => {
    fc.assert(fc.property(history, (messages) => {
      const repaired = repairToolHistory(messages)
      expect(repairToolHistory(repaired)).toEqual(repaired)
    }), fuzzOptions(4_000))
  })

  it('does not modify the list it is given (4,000 runs)', () => {
    fc.assert(fc.property(history, (messages) => {
      const before = structuredClone(messages)
      repairToolHistory(messages)
      expect(messages).toEqual(before)
    }), fuzzOptions(4_000))
  })
})
