import { parseJson } from '#shared/security/parse-json'
import { demoMessageText } from './demo-request'
import type { DemoMessage } from './demo-request'
import { parseUserJsonObject } from './demo-named-tools'
import { DEMO_LABEL } from './demo-replies'
import { demoDocumentAnswer } from './demo-documents'
import { DEMO_MAX_QUOTED_CHARS, DEMO_MAX_TOOL_CALLS } from './demo-limits'
import { DENIED_CONTENT, NO_ANSWER_CONTENT, NO_APPROVER_CONTENT, REFUSED_CONTENT } from '#shared/loop/tool-approval'

/** One tool result at the end of the history, joined with the call that asked for it. */
export interface DemoToolOutcome {
  name: string
  arguments: Record<string, unknown>
  content: string
  failed: boolean
}

// The executor writes failures as a short summary; these are the shapes it (and most apps) use.
const FAILURE_START = /^\s*(?:\[?error\]?|tool\s+(?:error|failed)|failed|failure|timeout|timed out|cancelled|canceled|invalid|no such tool|unknown tool)\b/i

/** True when a tool message reads as a failure: "Error: ...", "Tool failed ...", or JSON `{"error": ...}`. */
export function isDemoToolFailure(content: string): boolean {
  if (FAILURE_START.test(content)) return true
  const json = content.trim().startsWith('{') ? parseUserJsonObject(content) : undefined
  return Boolean(json && 'error' in json && json.error)
}

/**
 * The tool messages after the last assistant message, with the calls they answer, or [] when the history
 * does not end with tool results.
 */
export function trailingDemoToolOutcomes(messages: readonly DemoMessage[]): DemoToolOutcome[] {
  let start = messages.length
  while (start > 0 && messages[start - 1]!.role === 'tool') start--
  if (start === messages.length) return []
  const assistant = messages[start - 1]
  // By id, the first call with that id winning: one look-up per result instead of a scan of every call.
  const callsById = new Map<string, { function: { name: string, arguments: string } }>()
  for (const call of assistant?.role === 'assistant' ? assistant.tool_calls ?? [] : []) {
    if (!callsById.has(call.id)) callsById.set(call.id, call)
  }
  return messages.slice(start).map((message) => {
    const toolMessage = message as Extract<DemoMessage, { role: 'tool' }>
    const call = callsById.get(toolMessage.tool_call_id)
    const content = demoMessageText(toolMessage.content)
    return {
      name: call?.function.name ?? toolMessage.name ?? 'tool',
      arguments: (call && parseUserJsonObject(call.function.arguments || '{}')) ?? {},
      content,
      failed: isDemoToolFailure(content),
    }
  })
}

/** A short, readable form of a result: `84` from `84`, `{"result":84}` or `"84"`; a time from `{"readable": ...}`. */
export function demoDisplayValue(content: string): string {
  const trimmed = content.trim()
  let value: unknown = trimmed
  try {
    value = parseJson(trimmed)
  }
  catch {}
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>
    const key = ['result', 'readable', 'value', 'answer', 'output', 'time', 'text', 'summary'].find(candidate => candidate in record)
    if (key && (typeof record[key] === 'string' || typeof record[key] === 'number')) value = record[key]
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 600 ? `${text.slice(0, 600)}…` : text
}

/** Argument text shown inside the markdown answer: `2*3*4` must not turn into emphasis. */
export function escapeDemoMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, '\\$&')
}

/** An argument quoted back in the answer: escaped, and cut at DEMO_MAX_QUOTED_CHARS so a huge one stays a line. */
function quoteArgument(text: string): string {
  return escapeDemoMarkdown(text.length > DEMO_MAX_QUOTED_CHARS ? `${text.slice(0, DEMO_MAX_QUOTED_CHARS)}…` : text)
}

function quoteFailure(content: string): string {
  const message = content.trim().replace(/\s+/g, ' ')
  return message.length > 300 ? `${message.slice(0, 300)}…` : message
}

// A call that did not run carries instructions for the model ("do not call it again..."): the reply tells the
// user what happened in their words instead of repeating the model's.
const NOT_RUN_LINES: ReadonlyMap<string, (tool: string) => string> = new Map([
  [DENIED_CONTENT, tool => `You denied ${tool}, so I did not run it. Ask again if you want me to.`],
  [REFUSED_CONTENT, tool => `${tool} is set to Never in your tool settings, so I did not run it.`],
  [NO_ANSWER_CONTENT, tool => `${tool} waited for your approval and got no answer, so I did not run it.`],
  [NO_APPROVER_CONTENT, tool => `${tool} needs your approval and nobody could be asked, so I did not run it.`],
])

function answerOne(outcome: DemoToolOutcome): string {
  const tool = `\`${outcome.name}\``
  const notRun = NOT_RUN_LINES.get(outcome.content.trim())
  if (notRun) return notRun(tool)
  if (outcome.failed) return `The ${tool} tool failed: "${quoteFailure(outcome.content)}". I can't answer that part without it.`
  const value = demoDisplayValue(outcome.content)
  const argument = (key: string) => (typeof outcome.arguments[key] === 'string' ? quoteArgument(outcome.arguments[key] as string) : undefined)
  switch (outcome.name) {
    case 'calculate': {
      const expression = argument('expression')
      return expression ? `${expression} = **${value}** (computed with the ${tool} tool).` : `The result is **${value}** (computed with the ${tool} tool).`
    }
    case 'get_current_time': {
      const zone = argument('timezone')
      return `The time${zone ? ` in ${zone}` : ''} is **${value}** (from the ${tool} tool).`
    }
    case 'get_weather': {
      const city = argument('city')
      return `Weather${city ? ` in ${city}` : ''}: ${value} (from the ${tool} tool).`
    }
    case 'search_chat_history': {
      const query = argument('query')
      return `Here is what ${tool} found${query ? ` for "${query}"` : ''}:\n\n${value}`
    }
    case 'search_documents':
      return demoDocumentAnswer(outcome.content)
    default:
      return value.includes('\n') ? `The ${tool} tool returned:\n\n${value}` : `The ${tool} tool returned: ${value}`
  }
}

/**
 * The final answer once the tools have run: one line per result, failures quoted, then the demo label.
 * At most DEMO_MAX_TOOL_CALLS results are answered (the demo never asks for more); the rest are counted.
 */
export function demoAnswerFromToolResults(outcomes: readonly DemoToolOutcome[]): string {
  const answered = outcomes.slice(0, DEMO_MAX_TOOL_CALLS).map(answerOne)
  const unanswered = outcomes.length - answered.length
  if (unanswered > 0) answered.push(`(${unanswered} more tool result${unanswered === 1 ? '' : 's'} not shown.)`)
  return `${answered.join('\n\n')}\n\n${DEMO_LABEL}`
}
