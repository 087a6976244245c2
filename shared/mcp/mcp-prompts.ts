/**
 * An MCP server's prompts as the app offers them: `prompts/list` checked and bounded (printable names, at most
 * MAX_MCP_PROMPTS, their arguments as a flat object of strings), and `prompts/get`'s messages read into the text of
 * the user's message (text as it is; images, audio and resources named, text resources inlined).
 */
import { isRecord } from '../types/is-record'
import type { JsonSchemaObject } from '../types/chat'
import { MAX_MCP_DESCRIPTION_CHARS, MAX_MCP_PROMPT_ARGUMENTS, MAX_MCP_PROMPT_TEXT_CHARS, MAX_MCP_PROMPTS } from './mcp-limits'
import { mcpToolName } from './mcp-tool-name'
import { readMcpToolResult } from './mcp-tool-result'

/** One prompt, checked. */
export interface McpPromptEntry {
  /** The command's name (`server__prompt`). */
  name: string
  /** The name the server knows it by: what `prompts/get` sends. */
  mcpName: string
  title?: string
  description?: string
  /** Its arguments as an object of strings (the command's arguments form reads it). */
  parameters: JsonSchemaObject
}

const PRINTABLE = /^[\x20-\x7E]{1,128}$/

function cut(value: unknown, max: number): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined
}

/** The prompts of a listing that can be offered, named `prefix__prompt`, unique among `taken`; the others are left out. */
export function checkMcpPrompts(listed: readonly unknown[], prefix: string, taken: ReadonlySet<string> = new Set()): McpPromptEntry[] {
  const prompts: McpPromptEntry[] = []
  const names = new Set(taken)
  const seen = new Set<string>()
  for (const item of listed) {
    if (prompts.length >= MAX_MCP_PROMPTS) break
    if (!isRecord(item) || typeof item.name !== 'string' || !PRINTABLE.test(item.name) || seen.has(item.name)) continue
    seen.add(item.name)
    const listedArguments = Array.isArray(item.arguments) ? item.arguments : []
    if (listedArguments.length > MAX_MCP_PROMPT_ARGUMENTS) continue
    const properties: Record<string, unknown> = {}
    const required: string[] = []
    for (const argument of listedArguments) {
      if (!isRecord(argument) || typeof argument.name !== 'string' || !PRINTABLE.test(argument.name) || argument.name in properties) continue
      properties[argument.name] = { type: 'string', ...(cut(argument.description, 500) && { description: cut(argument.description, 500) }), ...(cut(argument.title, 80) && { title: cut(argument.title, 80) }) }
      if (argument.required === true) required.push(argument.name)
    }
    const name = mcpToolName(prefix, item.name, names)
    names.add(name)
    prompts.push({
      name,
      mcpName: item.name,
      ...(cut(item.title, 80) && { title: cut(item.title, 80) }),
      ...(cut(item.description, MAX_MCP_DESCRIPTION_CHARS) && { description: cut(item.description, MAX_MCP_DESCRIPTION_CHARS) }),
      parameters: { type: 'object', properties, ...(required.length > 0 && { required }) } as JsonSchemaObject,
    })
  }
  return prompts
}

/**
 * `prompts/get`'s result (untrusted) as the text of one user message: each message's content in order, one per
 * paragraph, an assistant's marked as such; capped at MAX_MCP_PROMPT_TEXT_CHARS.
 */
export function readMcpPromptMessages(result: unknown): string {
  const messages = isRecord(result) && Array.isArray(result.messages) ? result.messages : []
  const parts: string[] = []
  for (const message of messages) {
    if (!isRecord(message) || !isRecord(message.content)) continue
    // an image of a prompt is named only: the message carries text
    const text = message.content.type === 'image'
      ? `[Image: ${typeof message.content.mimeType === 'string' ? message.content.mimeType.slice(0, 100) : 'unknown type'}, not attached]`
      : readMcpToolResult({ content: [message.content] }).text
    if (text) parts.push(message.role === 'assistant' ? `Assistant: ${text}` : text)
  }
  const text = parts.join('\n\n')
  return text.length > MAX_MCP_PROMPT_TEXT_CHARS ? `${text.slice(0, MAX_MCP_PROMPT_TEXT_CHARS)}\n[The prompt was cut at ${MAX_MCP_PROMPT_TEXT_CHARS} characters.]` : text
}
