import { isRecord } from '../../types/is-record'
import { readMcpAppCsp } from './mcp-app-csp'
import type { McpAppCsp } from './mcp-app-csp'
import { readMcpAppPermissions } from './mcp-app-permissions'
import type { McpAppPermission } from './mcp-app-permissions'

/** The MIME type of an MCP App's HTML resource. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app'

/** Largest app document kept (characters): it is stored with the chat, so a reload shows it again. */
export const MAX_MCP_APP_HTML_CHARS = 512 * 1024

/** An app's interface as the host keeps it: its HTML and the domains it declared. */
export interface McpAppResource {
  uri: string
  html: string
  csp: McpAppCsp
  /** The app asked for a visible border around its frame. */
  prefersBorder?: boolean
  /** Browser capabilities the app asked for (`_meta.ui.permissions`); none is granted. */
  permissionsAsked?: McpAppPermission[]
}

/** A `resources/read` answer that cannot be shown, with the reason in words. */
export class McpAppResourceError extends Error {
  override readonly name = 'McpAppResourceError'
  constructor(readonly uri: string, reason: string) {
    super(`The app ${uri} cannot be shown: ${reason}.`)
  }
}

function decodeBase64(blob: string): string {
  const bytes = Uint8Array.from(atob(blob), character => character.charCodeAt(0))
  return new TextDecoder().decode(bytes)
}

/**
 * Reads a `resources/read` result (untrusted JSON) into the app's HTML: the first content item for `uri` (or the
 * first at all) with an HTML MIME type, as text or base64, at most MAX_MCP_APP_HTML_CHARS, with its `_meta.ui`.
 * Throws McpAppResourceError otherwise.
 */
export function readMcpAppResource(result: unknown, uri: string): McpAppResource {
  const contents = isRecord(result) && Array.isArray(result.contents) ? result.contents.filter(isRecord) : []
  const item = contents.find(entry => entry.uri === uri) ?? contents[0]
  if (!item) throw new McpAppResourceError(uri, 'the server returned no content for it')
  const mimeType = typeof item.mimeType === 'string' ? item.mimeType.toLowerCase().replace(/\s+/g, '') : ''
  if (!mimeType.startsWith('text/html')) throw new McpAppResourceError(uri, `its type is ${JSON.stringify(mimeType || 'missing')}, not ${MCP_APP_MIME_TYPE}`)
  let html: string
  if (typeof item.text === 'string') html = item.text
  else if (typeof item.blob === 'string') {
    if (item.blob.length > (MAX_MCP_APP_HTML_CHARS * 4) / 3 + 4) throw new McpAppResourceError(uri, `it is larger than ${MAX_MCP_APP_HTML_CHARS / 1024} KB`)
    try {
      html = decodeBase64(item.blob)
    }
    catch {
      throw new McpAppResourceError(uri, 'its content is not valid base64')
    }
  }
  else throw new McpAppResourceError(uri, 'it has neither text nor blob content')
  if (html.length > MAX_MCP_APP_HTML_CHARS) throw new McpAppResourceError(uri, `it is larger than ${MAX_MCP_APP_HTML_CHARS / 1024} KB`)
  const meta = isRecord(item._meta) && isRecord(item._meta.ui) ? item._meta.ui : {}
  const permissionsAsked = readMcpAppPermissions(meta.permissions)
  return {
    uri,
    html,
    csp: readMcpAppCsp(meta.csp),
    ...(meta.prefersBorder === true && { prefersBorder: true }),
    ...(permissionsAsked.length > 0 && { permissionsAsked }),
  }
}
