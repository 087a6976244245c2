import type { ToolDefinition } from '../../types/chat'

/**
 * A system-prompt section for models without native tool calling: how to call a tool with
 * `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, the tools on offer (name, description, JSON
 * parameters), and that results come back as tool messages. Returns '' when no tool is offered.
 */
export function describeToolsForTextMode(tools: ToolDefinition[]): string {
  if (tools.length === 0) return ''
  const entries = tools.map(({ function: definition }) => [
    `### ${definition.name}`,
    definition.description?.trim() || '(no description)',
    `Parameters (JSON Schema): ${JSON.stringify(definition.parameters)}`,
  ].join('\n'))
  return [
    '# Tools',
    '',
    'You can call the tools below. To call one, write exactly this, with the arguments as a JSON object that matches the tool\'s parameters:',
    '',
    '<tool_call>{"name": "tool_name", "arguments": {"parameter": "value"}}</tool_call>',
    '',
    'Write one <tool_call> block per call; you may write several in one reply. Do not put the block in a code fence,',
    'and do not invent results: after your reply, each result comes back to you as a tool message, and then you continue.',
    'Call only the tools listed here.',
    '',
    ...entries.flatMap(entry => [entry, '']),
  ].join('\n').trimEnd()
}
