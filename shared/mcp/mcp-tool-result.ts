import { MAX_MCP_IMAGE_CHARS, MAX_MCP_RESULT_CHARS } from './mcp-limits'

/** An image a tool returned, ready for an `<img src>`. */
export interface McpResultImage {
  mimeType: string
  dataUrl: string
}

/** A `tools/call` result as the app uses it: text for the model, images for the card. */
export interface ReadMcpToolResult {
  /** The server flagged the result as a failure (`isError`): the text is the error. */
  isError: boolean
  /** Text items as they are; images, audio and binary resources described in a line; text resources inlined. */
  text: string
  images: McpResultImage[]
}

/** Image types a browser shows without running anything (no SVG: it can carry script). */
const SHOWN_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

function sizeOfBase64(data: string): string {
  const bytes = Math.floor((data.length * 3) / 4)
  return bytes >= 1024 ? `${Math.round(bytes / 102.4) / 10} KB` : `${bytes} bytes`
}

function field(value: unknown, name: string): string {
  const item = (value as Record<string, unknown> | undefined)?.[name]
  return typeof item === 'string' ? item : ''
}

function describeItem(item: Record<string, unknown>, images: McpResultImage[]): string {
  switch (item.type) {
    case 'text': return field(item, 'text')
    case 'image': {
      const mimeType = field(item, 'mimeType').toLowerCase()
      const data = field(item, 'data')
      const shown = SHOWN_IMAGE_TYPES.has(mimeType) && data.length <= MAX_MCP_IMAGE_CHARS && BASE64.test(data)
      if (shown) images.push({ mimeType, dataUrl: `data:${mimeType};base64,${data}` })
      return `[Image: ${mimeType || 'unknown type'}, ${sizeOfBase64(data)}${shown ? ', shown to the user' : ''}]`
    }
    case 'audio': return `[Audio: ${field(item, 'mimeType') || 'unknown type'}, ${sizeOfBase64(field(item, 'data'))}]`
    case 'resource': {
      const resource = item.resource as Record<string, unknown> | undefined
      const head = `[Resource ${field(resource, 'uri')}${field(resource, 'mimeType') ? ` (${field(resource, 'mimeType')})` : ''}]`
      if (typeof resource?.text === 'string') return `${head}\n${resource.text}`
      return `${head} binary, ${sizeOfBase64(field(resource, 'blob'))}`
    }
    case 'resource_link': return `[Resource link: ${field(item, 'name') || field(item, 'uri')} <${field(item, 'uri')}>]`
    default: return `[Content of type ${JSON.stringify(String(item.type)).slice(0, 40)}]`
  }
}

/**
 * Reads a `tools/call` result (untrusted: any JSON) into text and images. The text is the content items in order,
 * one per paragraph; with no content, the structured content as JSON. Capped at MAX_MCP_RESULT_CHARS.
 */
export function readMcpToolResult(result: unknown): ReadMcpToolResult {
  const value = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>
  const images: McpResultImage[] = []
  const content = Array.isArray(value.content) ? value.content : []
  const parts = content
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .map(item => describeItem(item, images))
  let text = parts.join('\n\n')
  if (parts.length === 0 && value.structuredContent !== undefined) text = JSON.stringify(value.structuredContent) ?? ''
  if (text.length > MAX_MCP_RESULT_CHARS) text = `${text.slice(0, MAX_MCP_RESULT_CHARS)}\n[The server's result was cut at ${MAX_MCP_RESULT_CHARS} characters.]`
  return { isError: value.isError === true, text, images }
}
