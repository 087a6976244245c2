/**
 * An MCP server's resources as the app offers them for attaching: `resources/list` checked and bounded, and
 * `resources/read` turned into one text file (text contents joined; binary blobs named, not carried), size-capped.
 */
import { isRecord } from '../types/is-record'
import { MAX_MCP_RESOURCE_TEXT_CHARS, MAX_MCP_RESOURCES } from './mcp-limits'

/** One resource of a listing. */
export interface McpResourceEntry {
  uri: string
  /** What the picker shows: the title, else the name, else the URI. */
  label: string
  description?: string
  mimeType?: string
  /** Bytes, when the server says. */
  size?: number
}

/** A read resource, ready to attach as a document. */
export interface McpResourceText {
  /** A file name for the attachment (the resource's name, with an extension its type reads as). */
  fileName: string
  mimeType: string
  text: string
}

function cut(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.trim() ? value.slice(0, max) : undefined
}

/** The resources of a listing with a usable URI (at most MAX_MCP_RESOURCES, each URI once). */
export function checkMcpResources(listed: readonly unknown[]): McpResourceEntry[] {
  const resources: McpResourceEntry[] = []
  const seen = new Set<string>()
  for (const item of listed) {
    if (resources.length >= MAX_MCP_RESOURCES) break
    if (!isRecord(item) || typeof item.uri !== 'string' || item.uri.length > 2_000 || !URL.canParse(item.uri) || seen.has(item.uri)) continue
    seen.add(item.uri)
    resources.push({
      uri: item.uri,
      label: cut(item.title, 120) ?? cut(item.name, 120) ?? item.uri.slice(0, 120),
      ...(cut(item.description, 300) && { description: cut(item.description, 300) }),
      ...(cut(item.mimeType, 100) && { mimeType: cut(item.mimeType, 100) }),
      ...(typeof item.size === 'number' && Number.isFinite(item.size) && item.size >= 0 && { size: item.size }),
    })
  }
  return resources
}

/** Types read as Markdown; any other text is attached as plain text (the documents code reads both). */
const MARKDOWN = new Set(['text/markdown', 'text/x-markdown'])

/**
 * `resources/read`'s result (untrusted) as one text file named after `entry`: text contents in order, a line for
 * each binary one; cut at MAX_MCP_RESOURCE_TEXT_CHARS with a note. Throws with a message when nothing is text.
 */
export function readMcpResourceText(entry: Pick<McpResourceEntry, 'uri' | 'label'>, result: unknown): McpResourceText {
  const contents = isRecord(result) && Array.isArray(result.contents) ? result.contents.filter(isRecord) : []
  const parts: string[] = []
  let texts = 0
  let markdown = true
  for (const content of contents) {
    const type = typeof content.mimeType === 'string' ? content.mimeType.toLowerCase() : ''
    if (typeof content.text === 'string') {
      texts++
      markdown &&= MARKDOWN.has(type)
      parts.push(content.text)
    }
    else {
      const bytes = typeof content.blob === 'string' ? Math.floor(content.blob.length * 3 / 4) : 0
      parts.push(`[Binary content ${String(content.uri ?? entry.uri).slice(0, 200)} (${type || 'unknown type'}, ${bytes} bytes) not attached]`)
    }
  }
  if (texts === 0) throw new Error(`${entry.label} has no text to attach${contents.length > 0 ? ' (only binary content)' : ''}.`)
  let text = parts.join('\n\n')
  if (text.length > MAX_MCP_RESOURCE_TEXT_CHARS) text = `${text.slice(0, MAX_MCP_RESOURCE_TEXT_CHARS)}\n[Cut at ${MAX_MCP_RESOURCE_TEXT_CHARS} characters.]`
  const base = entry.label.replace(/[^\w .-]+/g, '_').replace(/\.(md|txt)$/i, '').slice(0, 80) || 'resource'
  return markdown ? { fileName: `${base}.md`, mimeType: 'text/markdown', text } : { fileName: `${base}.txt`, mimeType: 'text/plain', text }
}
