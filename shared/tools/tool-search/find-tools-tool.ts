import type { ModelMessage, ToolDefinition } from '../../types/chat'

export const FIND_TOOLS_NAME = 'find_tools'

/** Tools one search loads at most. @default 5 */
export const FIND_TOOLS_LIMIT = 5

export const findToolsDefinition: ToolDefinition = {
  type: 'function',
  function: {
    name: FIND_TOOLS_NAME,
    description: 'Search the user\'s enabled tools that are not offered yet (there are too many to send them all). '
      + 'Describe the task in a few words, e.g. "weather forecast for a city" or "convert currency". '
      + 'The tools found are available to call from your next step on; the result lists them.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 500, description: 'What the tool should do, in a few words.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
}

// The line that names a loaded tool in find_tools' result; read back from the history so a later run (or a server
// run taken over by another instance) offers what earlier searches loaded.
const LOADED_LINE = /^- ([\w.-]{1,128}): /

/** find_tools' result: what it loaded, and why the model can call it now. */
export function findToolsResult(query: string, found: readonly ToolDefinition[], alreadyOffered: readonly string[]): string {
  const lines: string[] = []
  if (found.length === 0 && alreadyOffered.length === 0) {
    return `No enabled tool matches "${query}". Try other words, or answer without a tool.`
  }
  if (found.length > 0) {
    lines.push(`Loaded ${found.length} tool${found.length === 1 ? '' : 's'} for "${query}"; you can call ${found.length === 1 ? 'it' : 'them'} from your next step on:`)
    for (const definition of found) lines.push(`- ${definition.function.name}: ${oneLine(definition.function.description ?? '')}`)
  }
  if (alreadyOffered.length > 0) lines.push(`Already available: ${alreadyOffered.join(', ')}.`)
  return lines.join('\n')
}

/** Names that find_tools results in `history` loaded. */
export function toolsLoadedIn(history: readonly ModelMessage[]): string[] {
  const searchCalls = new Set<string>()
  for (const message of history) {
    if (message.role !== 'assistant') continue
    for (const call of message.tool_calls ?? []) {
      if (call.function.name === FIND_TOOLS_NAME) searchCalls.add(call.id)
    }
  }
  const names: string[] = []
  for (const message of history) {
    if (message.role !== 'tool' || typeof message.content !== 'string') continue
    if (message.name !== FIND_TOOLS_NAME && !searchCalls.has(message.tool_call_id)) continue
    for (const line of message.content.split('\n')) {
      const match = LOADED_LINE.exec(line)
      if (match) names.push(match[1]!)
    }
  }
  return names
}

function oneLine(text: string, max = 200): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}
