import { demoMessageText, offeredDemoTools } from './demo-request'
import type { DemoRequest, DemoTool } from './demo-request'
import { detectDemoIntents } from './demo-intents'
import { demoResourceAnswer, detectDemoDocumentQuestion } from './demo-documents'
import { splitInlineResources } from '#shared/history/inline-resource'
import type { InlineResource } from '#shared/history/inline-resource'
import type { DemoIntent } from './demo-intents'
import { findDemoNamedCalls } from './demo-named-tools'
import { prepareDemoOfferedTools } from './demo-offered-tools'
import { DEMO_LABEL, demoIntroReply, demoLongReply, demoMarkdownReply, demoReasoning, demoToolsOffReply, DEMO_STREAM_ERROR } from './demo-replies'
import { demoAnswerFromToolResults, trailingDemoToolOutcomes } from './demo-tool-answer'
import { DEMO_MAX_TOOL_CALLS, DEMO_PROMPT_WINDOW_CHARS } from './demo-limits'
import { isContinueRequest } from '#shared/loop/continue-reply'

/** One call the demo model makes. `arguments` is the JSON text, as a provider would send it. */
export interface DemoToolCall { id: string, name: string, arguments: string }

export type DemoScenario = 'continue' | 'intro' | 'markdown' | 'long' | 'error' | 'tool-calls' | 'tool-answer' | 'tools-off' | 'tool-loop' | 'cannot' | 'resource'

/** What the demo model will say for one request; turned into chunks by `buildDemoFrames`. */
export interface DemoPlan {
  scenario: DemoScenario
  /** Streamed as `reasoning` deltas before anything else. */
  reasoning?: string
  text: string
  toolCalls: DemoToolCall[]
  /** Sent as an error object after the text, instead of a normal finish. */
  streamError?: { message: string, code: number }
  /** Pause between chunks when streamed, in ms. */
  chunkDelayMs: number
  /** Words per text chunk. */
  wordsPerChunk: number
}

const ARGUMENT_ALIASES: Record<string, string[]> = {
  expression: ['expr', 'input', 'formula', 'query'],
  timezone: ['tz', 'time_zone', 'zone', 'location'],
  city: ['location', 'place', 'q'],
  query: ['q', 'text', 'search', 'term'],
}

/** FNV-1a, base 36: stable ids from the conversation so the same request gives the same ids. */
export function demoHash(text: string): string {
  let hash = 0x811C9DC5
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash.toString(36)
}

/** Puts an intent's arguments under the names the offered tool's schema uses (`expression` → `expr`, ...). */
export function mapDemoArguments(intentArguments: Record<string, string>, tool: DemoTool): Record<string, unknown> {
  const parameters = tool.function.parameters ?? {}
  const properties = (parameters.properties && typeof parameters.properties === 'object' ? parameters.properties : {}) as Record<string, unknown>
  const required = Array.isArray(parameters.required) ? parameters.required.filter((key): key is string => typeof key === 'string') : []
  const names = Object.keys(properties)
  const mapped: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(intentArguments)) {
    const target = names.length === 0 || names.includes(key)
      ? key
      : ARGUMENT_ALIASES[key]?.find(alias => names.includes(alias))
        ?? required.find(name => !(name in mapped) && (properties[name] as { type?: unknown } | undefined)?.type === 'string')
        ?? key
    mapped[target] = value
  }
  return mapped
}

/**
 * The last user message: the start of the user's own words (all that the script reads, see
 * DEMO_PROMPT_WINDOW_CHARS) and the MCP resources attached inline, which are context, never a request.
 */
function lastUserText(request: DemoRequest): { prompt: string, resources: InlineResource[] } {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index]!
    if (message.role !== 'user') continue
    const { own, resources } = splitInlineResources(demoMessageText(message.content))
    return { prompt: own.slice(0, DEMO_PROMPT_WINDOW_CHARS), resources }
  }
  return { prompt: '', resources: [] }
}

function toolMessagesSinceLastUser(request: DemoRequest): number {
  let count = 0
  for (let index = request.messages.length - 1; index >= 0 && request.messages[index]!.role !== 'user'; index--) {
    if (request.messages[index]!.role === 'tool') count++
  }
  return count
}

// Six words every 36 ms (the introduction: about a second). Two words every 12 ms, the same pace, had the page render
// three times as often: a reply to "hello" cost 1.2–1.4 CPU-s against 0.9–1.1 (median of 8, 2-core machine).
function textPlan(scenario: DemoScenario, text: string, extra: Partial<DemoPlan> = {}): DemoPlan {
  return { scenario, text, toolCalls: [], chunkDelayMs: 36, wordsPerChunk: 6, ...extra }
}

function toolCallsFrom(calls: { name: string, arguments: Record<string, unknown> }[], seed: string): DemoToolCall[] {
  return calls.map((call, index) => ({ id: `call_demo_${seed}_${index}`, name: call.name, arguments: JSON.stringify(call.arguments) }))
}

/**
 * The demo model's whole script: what to answer to a request. Pure and deterministic.
 * Only tools in `request.tools` are ever called; tools needed but not offered are named in the text instead.
 */
export function planDemoReply(request: DemoRequest): DemoPlan {
  if (isContinueRequest(request.messages)) return planContinuation(request)
  const { prompt, resources } = lastUserText(request)
  const reasoning = /\b(?:think|thinking|reason|reasoning)\b/i.test(prompt) ? demoReasoning(prompt) : undefined
  const tools = offeredDemoTools(request)
  const toolsByName = new Map(tools.map(tool => [tool.function.name, tool]))
  const seed = demoHash(JSON.stringify(request.messages))

  const outcomes = trailingDemoToolOutcomes(request.messages)
  const calculate = toolsByName.get('calculate')
  // "keep counting": a model that never stops calling tools, to show the step cap and Continue.
  if (calculate && /\bkeep counting\b/i.test(prompt)) {
    const expression = `${toolMessagesSinceLastUser(request)} + 1`
    return textPlan('tool-loop', '', { toolCalls: toolCallsFrom([{ name: 'calculate', arguments: mapDemoArguments({ expression }, calculate) }], seed) })
  }
  // "repeat yourself": the same call again and again until the app refuses to run it, to show repeat detection.
  if (calculate && /\brepeat yourself\b/i.test(prompt) && !outcomes.some(outcome => outcome.failed)) {
    return textPlan('tool-loop', '', { toolCalls: toolCallsFrom([{ name: 'calculate', arguments: mapDemoArguments({ expression: '1 + 1' }, calculate) }], seed) })
  }
  if (outcomes.length > 0) return textPlan('tool-answer', demoAnswerFromToolResults(outcomes), { reasoning })

  const intents = detectDemoIntents(prompt, prepareDemoOfferedTools(tools))
  const intentFor = (name: string): DemoIntent | undefined => intents.find(intent => intent.toolName === name)

  const named = findDemoNamedCalls(prompt, [...toolsByName.keys()])
  if (named.length > 0) {
    const calls = named.map((call) => {
      const tool = toolsByName.get(call.toolName)!
      const intent = intentFor(call.toolName)
      return { name: call.toolName, arguments: call.arguments ?? (intent ? mapDemoArguments(intent.arguments, tool) : {}) }
    })
    return textPlan('tool-calls', '', { reasoning, toolCalls: toolCallsFrom(calls, seed) })
  }

  // A question about the chat's attachment, when the chat offers the search over its documents.
  const documents = toolsByName.get('search_documents')
  const documentQuery = documents ? detectDemoDocumentQuestion(prompt) : undefined
  if (documents && documentQuery) {
    // the whole question is the query: a clause the plain-words matcher gave the same tool would search twice
    const others = intents.filter(intent => intent.toolName !== 'search_documents')
    intents.splice(0, intents.length, { toolName: 'search_documents', arguments: { query: documentQuery } }, ...others)
  }

  if (intents.length > 0) {
    // A part no tool can answer ("the time on Mars") is said in words; the other parts still get their calls.
    const cannot = intents.flatMap(intent => (intent.cannot ? [intent.cannot] : []))
    const answerable = intents.filter(intent => !intent.cannot)
    const offered = answerable.filter(intent => toolsByName.has(intent.toolName)).slice(0, DEMO_MAX_TOOL_CALLS)
    const missing = [...new Set(answerable.filter(intent => !toolsByName.has(intent.toolName)).map(intent => intent.toolName))]
    const notes = [...cannot, ...(missing.length > 0 ? [demoToolsOffReply(missing)] : [])]
    if (offered.length === 0) {
      return missing.length > 0 || cannot.length === 0
        ? textPlan('tools-off', notes.join('\n\n'), { reasoning })
        : textPlan('cannot', `${notes.join('\n\n')}\n\n${DEMO_LABEL}`, { reasoning })
    }
    const calls = offered.map(intent => ({ name: intent.toolName, arguments: intent.toolArguments ?? mapDemoArguments(intent.arguments, toolsByName.get(intent.toolName)!) }))
    return textPlan('tool-calls', notes.join('\n\n'), { reasoning, toolCalls: toolCallsFrom(calls, seed) })
  }

  // Asked about the resources attached to the message: their text is right there, no tool needed.
  if (resources.length > 0) return textPlan('resource', demoResourceAnswer(resources), { reasoning })
  if (/\berror\b/i.test(prompt)) {
    return textPlan('error', 'Starting a reply that will fail part-way through, as a provider sometimes does', { reasoning, streamError: { ...DEMO_STREAM_ERROR } })
  }
  // 2,500 words over 12.5 s, long enough to stop, reload or scroll mid-reply. In 12-word chunks 60 ms apart: 3 words every
  // 15 ms made the page render about 830 times for the same stream, at 10.5 CPU-s against 7 (2-core machine).
  if (/\blong\b/i.test(prompt)) return textPlan('long', demoLongReply(), { reasoning, chunkDelayMs: 60, wordsPerChunk: 12 })
  if (/\bmarkdown\b/i.test(prompt)) return textPlan('markdown', demoMarkdownReply(), { reasoning })
  return textPlan('intro', demoIntroReply(), { reasoning })
}

/**
 * Asked to continue a cut reply: the rest of what it would have said to the question before (the same script, so
 * the cut text is its start), or the whole reply when the cut text is not the start of it.
 */
function planContinuation(request: DemoRequest): DemoPlan {
  const partial = demoMessageText(request.messages.at(-2)!.content)
  const original = planDemoReply({ ...request, messages: request.messages.slice(0, -2) })
  const rest = original.text.startsWith(partial) ? original.text.slice(partial.length) : original.text
  return { ...original, scenario: 'continue', reasoning: undefined, toolCalls: [], streamError: undefined, text: rest }
}
