/**
 * Tool parameters a stateless (2026-07-28) server wants mirrored into HTTP headers (`x-mcp-header` in a parameter's
 * schema → `Mcp-Param-<Name>: <value>`), so gateways can route on them without reading the body. A tool whose
 * designations break the spec's rules (empty or non-token names, duplicates, non-primitive parameters) is not offered
 * at all, as the spec asks.
 */
import { isRecord } from '../types/is-record'

/** Parameter name → header suffix, per tool. */
export type ParamHeaderMap = Map<string, Record<string, string>>

/** HTTP token characters (RFC 9110), which a header name must consist of. */
const TOKEN = /^[!#$%&'*+\-.^`|~\w]+$/
const PRIMITIVE_TYPES = new Set(['string', 'number', 'integer', 'boolean'])

/** The tool's designations, {} when it has none, undefined when they are invalid (the tool is refused). */
export function paramHeadersOf(inputSchema: unknown): Record<string, string> | undefined {
  const properties = isRecord(inputSchema) && isRecord(inputSchema.properties) ? inputSchema.properties : {}
  const headers: Record<string, string> = {}
  const seen = new Set<string>()
  for (const [name, property] of Object.entries(properties)) {
    if (!isRecord(property) || !('x-mcp-header' in property)) continue
    const header = property['x-mcp-header']
    if (typeof header !== 'string' || !TOKEN.test(header) || seen.has(header.toLowerCase())) return undefined
    if (typeof property.type !== 'string' || !PRIMITIVE_TYPES.has(property.type)) return undefined
    seen.add(header.toLowerCase())
    headers[name] = header
  }
  return headers
}

/**
 * Reads a `tools/list` result: remembers each tool's designations in `map` and returns the result without the tools
 * whose designations are invalid (the same object when none are).
 */
export function readToolHeaders(result: Record<string, unknown>, map: ParamHeaderMap): Record<string, unknown> {
  if (!Array.isArray(result.tools)) return result
  const kept = result.tools.filter((tool: unknown) => {
    if (!isRecord(tool) || typeof tool.name !== 'string') return true
    const headers = paramHeadersOf(tool.inputSchema)
    if (headers) map.set(tool.name, headers)
    else map.delete(tool.name)
    return headers !== undefined
  })
  return kept.length === result.tools.length ? result : { ...result, tools: kept }
}

/** A value as a header carries it: plain when it is safe ASCII, else `=?base64?…?=` of its UTF-8. */
export function encodeParamHeader(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined
  const text = String(value)
  const plain = /^[\x20-\x7E]*$/.test(text) && text === text.trim()
  if (plain) return text
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `=?base64?${btoa(binary)}?=`
}

/** The `Mcp-Param-*` headers of one `tools/call`. */
export function paramHeadersFor(map: ParamHeaderMap, toolName: unknown, args: unknown): Record<string, string> {
  const designations = typeof toolName === 'string' ? map.get(toolName) : undefined
  const headers: Record<string, string> = {}
  if (!designations || !isRecord(args)) return headers
  for (const [name, header] of Object.entries(designations)) {
    const value = encodeParamHeader(args[name])
    if (value !== undefined) headers[`mcp-param-${header.toLowerCase()}`] = value
  }
  return headers
}
