import { createHash } from 'node:crypto'
import { OPENROUTER_ORIGIN } from '#shared/security/connect-origins'

/**
 * Inline scripts the app inserts itself after load, which no page response contains: Nuxt UI's colour plugin, in
 * a client-rendered app, adds this one-liner through useHead to drop its early <style>. Allowed by their exact
 * hash; the e2e suite fails on any CSP violation, so a changed string is noticed.
 */
const CLIENT_INSERTED_SCRIPTS = [`document.head.removeChild(document.querySelector('[data-nuxt-ui-colors]'))`]

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`
}

const CLIENT_SCRIPT_HASHES = CLIENT_INSERTED_SCRIPTS.map(sha256Source)

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi

/**
 * `'sha256-…'` sources for every inline script of `html` (those without `src`), in document order, plus those of
 * the scripts the app inserts itself (CLIENT_INSERTED_SCRIPTS).
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? ''
    if (/\ssrc\s*=/i.test(attributes)) continue
    hashes.push(sha256Source(match[2] ?? ''))
  }
  return [...new Set([...hashes, ...CLIENT_SCRIPT_HASHES])]
}

/** What a page's policy depends on. */
export interface ContentSecurityPolicyOptions {
  /** Hashes of the page's own inline scripts (see inlineScriptHashes). @default [] */
  scriptHashes?: string[]
  /** Model endpoints the user configured (see parseConnectOrigins). @default [] */
  connectOrigins?: string[]
  /** Origins the tool plugins declared with `connects` (see pluginConnectOrigins). @default [] */
  declaredOrigins?: readonly string[]
  /** `nuxt dev`: Vite's hot reload talks over a WebSocket. @default false */
  dev?: boolean
  /** Origins the page may frame (the MCP Apps sandbox origin). @default none */
  frameOrigins?: string[]
}

/**
 * The Content-Security-Policy of every response. Scripts: the app's own files and the exact inline scripts
 * Nuxt wrote into the page (by hash), nothing inline otherwise and no eval (WebAssembly may be compiled). Connections: the app, OpenRouter,
 * the origins the tool plugins declared and the endpoints the user configured, nothing else. Remote images stay allowed over https because a user may
 * click to load one (replies show a placeholder until then).
 */
export function buildContentSecurityPolicy(options: ContentSecurityPolicyOptions = {}): string {
  const { scriptHashes = [], connectOrigins = [], declaredOrigins = [], dev = false, frameOrigins = [] } = options
  const connect = [...new Set([OPENROUTER_ORIGIN, ...declaredOrigins, ...connectOrigins])]
  return [
    `default-src 'self'`,
    // 'wasm-unsafe-eval' compiles WebAssembly (the QuickJS sandbox of the tools written in the app); JavaScript eval
    // stays refused.
    `script-src 'self' 'wasm-unsafe-eval'${scriptHashes.map(hash => ` ${hash}`).join('')}`,
    `style-src 'self' 'unsafe-inline'`,
    // blob: the images attached to messages, shown from the browser's own storage (object URLs)
    `img-src 'self' data: blob: https:`,
    `font-src 'self' data:`,
    `connect-src 'self' ${connect.join(' ')}${dev ? ' ws: wss:' : ''}`,
    `worker-src 'self'`,
    `manifest-src 'self'`,
    `frame-src ${frameOrigins.length > 0 ? frameOrigins.join(' ') : `'none'`}`,
    `object-src 'none'`,
    `base-uri 'none'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
  ].join('; ')
}

/** Headers every response carries, page or asset or API answer. */
export const BASELINE_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
} as const
