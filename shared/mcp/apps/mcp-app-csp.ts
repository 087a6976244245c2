import { isRecord } from '../../types/is-record'

/** The domains an app's HTML declares (`_meta.ui.csp`): what its frame may reach, and nothing else. */
export interface McpAppCsp {
  /** fetch, XHR, WebSocket. */
  connectDomains: string[]
  /** Scripts, styles, images, fonts, media. */
  resourceDomains: string[]
}

/** Domains kept per list; the rest are dropped (a policy is a header, and headers have limits). */
export const MAX_MCP_APP_CSP_DOMAINS = 16

/**
 * An origin a policy may name: `https://host[:port]` (the host may start with `*.`), or `http://` and `ws(s)://`
 * for loopback only. Anything that could end the directive or add a keyword (quotes, spaces, `;`, `,`) fails.
 */
const DOMAIN = /^(?:https:\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|wss:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)*|(?:http|ws):\/\/(?:localhost|127\.0\.0\.1))(?::\d{1,5})?$/

/** One declared domain list: lower-cased, checked, unique, at most MAX_MCP_APP_CSP_DOMAINS; bad entries dropped. */
export function checkCspDomains(list: unknown): string[] {
  if (!Array.isArray(list)) return []
  const kept = new Set<string>()
  for (const item of list) {
    if (typeof item !== 'string') continue
    const domain = item.trim().toLowerCase().replace(/\/$/, '')
    if (DOMAIN.test(domain)) kept.add(domain)
    if (kept.size >= MAX_MCP_APP_CSP_DOMAINS) break
  }
  return [...kept]
}

/** A resource's `_meta.ui.csp`, checked (none declared: nothing reachable). */
export function readMcpAppCsp(value: unknown): McpAppCsp {
  const csp = isRecord(value) ? value : {}
  return { connectDomains: checkCspDomains(csp.connectDomains), resourceDomains: checkCspDomains(csp.resourceDomains) }
}

/**
 * The policy of the sandbox page, which the app's HTML (a `srcdoc` frame inside it) inherits: inline script and
 * style (an app is one HTML document), data:/blob: media, the declared resource domains for scripts, styles,
 * images, fonts and media, the declared connect domains for connections, and nothing else: no other network, no
 * plugins, no forms, no `<base>`. Only `frameAncestor` may embed it.
 */
export function buildMcpAppSandboxCsp(csp: McpAppCsp, frameAncestor: string): string {
  const resources = checkCspDomains(csp.resourceDomains).map(domain => ` ${domain}`).join('')
  const connect = checkCspDomains(csp.connectDomains)
  return [
    `default-src 'none'`,
    `script-src 'unsafe-inline'${resources}`,
    `style-src 'unsafe-inline'${resources}`,
    `img-src data: blob:${resources}`,
    `font-src data:${resources}`,
    `media-src data: blob:${resources}`,
    `connect-src ${connect.length > 0 ? connect.join(' ') : `'none'`}`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'none'`,
    `frame-ancestors ${frameAncestor}`,
  ].join('; ')
}
