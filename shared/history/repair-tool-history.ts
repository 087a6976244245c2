import type { AssistantMessage, ModelMessage, ToolCall, ToolMessage } from '../types/chat'
import { isJsonObjectText, isValidToolName, normalizeBlankArguments } from './tool-call-shape'

/** What the model reads for a cut call that the user saw (its card says "cut off"). */
export const CUT_OFF_RESULT = 'The call was cut off before it finished; it did not run.'

/** What the model reads for a whole call whose result was never stored (Stop, a crash, a closed tab). */
export const MISSING_TOOL_RESULT = 'Cancelled: no result was recorded.'

/**
 * Turns a model-bound history into one a strict OpenAI-compatible server accepts (see validateStrictHistory),
 * changing as little as it can. Pure: the input is not modified. The rules, per case:
 *
 * 1. A tool message is kept only inside the block of `tool` messages right after an assistant message with
 *    calls, and only as the first answer to one of those calls; orphans and duplicates are dropped. Answers are
 *    put in the calls' order.
 * 2. A call with no name (empty or not text) is dropped with its answers: it was cut before the model named a
 *    tool, nothing ran, and any name we made up would put words in the model's mouth.
 * 3. A name with characters a server refuses (`functions.get_weather`) has them replaced by `_` and is cut to 64
 *    characters; the call keeps its answer, which tells the model what went wrong ("no tool named ...").
 * 4. Blank arguments become `{}` (models send `""` for tools without parameters; the executor ran it as `{}`).
 * 5. A call whose arguments are not JSON object text (cut mid-arguments, or malformed) and that was answered
 *    (the loop answers every call of a stopped or failed step) is kept with `{}` arguments and the answer
 *    replaced by CUT_OFF_RESULT: the user saw its card and may say "try again", so the model must know it tried;
 *    the executor never runs such a call, so "it did not run" is true. Unanswered, it is dropped like rule 2.
 * 6. A whole call left unanswered gets MISSING_TOOL_RESULT, because servers reject a call without an answer.
 * 7. A call id that is empty or already used earlier in the history gets a fresh one (`<id>_2`...), and its
 *    answers in its own block follow it; calls' `type` is set to 'function'.
 * 8. An assistant message left with no calls loses `tool_calls`; with no text either it is dropped (servers
 *    refuse an assistant message with neither). Content is null when there are calls but no text.
 * 9. A message with an unknown role is dropped.
 */
export function repairToolHistory(messages: readonly ModelMessage[]): ModelMessage[] {
  const repaired: ModelMessage[] = []
  const usedIds = new Set<string>()
  const nextSuffix = new Map<string, number>()
  let index = 0
  while (index < messages.length) {
    const message = messages[index]!
    index++
    if (message?.role === 'tool') continue // rule 1: not in the block of an assistant message with calls
    if (message?.role !== 'assistant') {
      if (message?.role === 'system' || message?.role === 'user') repaired.push(message)
      continue
    }
    const answers: ToolMessage[] = []
    while (messages[index]?.role === 'tool') answers.push(messages[index++] as ToolMessage)
    repaired.push(...repairTurn(message, answers, usedIds, nextSuffix))
  }
  return repaired
}

/** One assistant message and the tool messages right after it → the messages the model should see for them. */
function repairTurn(message: AssistantMessage, answers: ToolMessage[], usedIds: Set<string>, nextSuffix: Map<string, number>): ModelMessage[] {
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : []
  const answerOf = matchAnswers(calls, answers)
  const kept: ToolCall[] = []
  const results: ToolMessage[] = []
  calls.forEach((call, position) => {
    const name = repairName(call?.function?.name)
    const answer = answerOf.get(position)
    if (!name) return // rule 2
    const args = normalizeBlankArguments(call.function.arguments)
    const whole = isJsonObjectText(args)
    if (!whole && !answer) return // rule 5, unanswered
    const id = freshId(call.id, usedIds, nextSuffix)
    kept.push({ id, type: 'function', function: { name, arguments: whole ? args : '{}' } })
    const content = !whole ? CUT_OFF_RESULT : answer ? answerText(answer) : MISSING_TOOL_RESULT
    results.push({ role: 'tool', tool_call_id: id, name, content })
  })
  const text = typeof message.content === 'string' && message.content !== '' ? message.content : null
  if (kept.length > 0) return [{ role: 'assistant', content: text, tool_calls: kept }, ...results]
  return text === null ? [] : [{ role: 'assistant', content: text }] // rule 8
}

/**
 * Pairs each call (by position) with its first answer: answers go, in their order, to the first call with their
 * id that has none yet, so two calls sharing an id each keep their own answer. Extra answers are dropped.
 */
function matchAnswers(calls: readonly ToolCall[], answers: readonly ToolMessage[]): Map<number, ToolMessage> {
  // The positions of each id's calls, in order, still waiting for an answer.
  const waiting = new Map<unknown, number[]>()
  calls.forEach((call, position) => {
    const positions = waiting.get(call?.id)
    if (positions) positions.push(position)
    else waiting.set(call?.id, [position])
  })
  const next = new Map<unknown, number>()
  const matched = new Map<number, ToolMessage>()
  for (const answer of answers) {
    const positions = waiting.get(answer.tool_call_id)
    const taken = next.get(answer.tool_call_id) ?? 0
    if (!positions || taken >= positions.length) continue
    matched.set(positions[taken]!, answer)
    next.set(answer.tool_call_id, taken + 1)
  }
  return matched
}

/** Rule 3: a valid name as is, an invalid one made valid, nothing for no name. */
function repairName(name: unknown): string | undefined {
  if (isValidToolName(name)) return name
  if (typeof name !== 'string' || name.trim() === '') return undefined
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64)
}

/**
 * Rule 7: the id itself when it is new to the history, otherwise the first free `<id>_<n>`. Ids are never freed,
 * so the search for a base goes on from the last number it gave (many calls sharing one id cost one step each).
 */
function freshId(id: unknown, usedIds: Set<string>, nextSuffix: Map<string, number>): string {
  const base = typeof id === 'string' && id !== '' ? id : 'call_without_id'
  let candidate = base
  let n = nextSuffix.get(base) ?? 2
  if (usedIds.has(candidate)) {
    while (usedIds.has(candidate = `${base}_${n}`)) n++
    nextSuffix.set(base, n + 1)
  }
  usedIds.add(candidate)
  return candidate
}

function answerText(answer: ToolMessage): string {
  return typeof answer.content === 'string' ? answer.content : JSON.stringify(answer.content) ?? ''
}
