/**
 * `context.fetch`, the fetch a tool's handler is given: the tool's signal by default, the operator's origin
 * overrides applied (tests point a declared origin at a local host), and a request the page's
 * Content-Security-Policy refused reported as such instead of the browser's bare "Failed to fetch".
 *
 * The browser says nothing in the rejection itself; it fires a `securitypolicyviolation` event on the page (or
 * worker) instead, as a task of its own that may come after the rejection. So the violations are recorded from
 * the first import on, and a failed fetch waits briefly for one that names its origin.
 */
import { ConnectBlockedError } from '../errors/connect-blocked-error'
import { overriddenUrl } from '../security/declared-origins'

/** The fetch of a tool's context: `fetch`'s own signature, the call's signal unless `init.signal` is given. */
export type ToolFetch = (input: string | URL, init?: RequestInit) => Promise<Response>

/** How long a failed fetch waits for the violation event that explains it; only a failure ever waits. */
const VIOLATION_WAIT_MS = 250

let overrides: ReadonlyMap<string, string> = new Map()
const blockedOrigins = new Set<string>()
const waiters = new Set<(origin: string) => void>()

/** Sets the operator's origin overrides (from the public runtime config) for every tool's fetch. */
export function setConnectOriginOverrides(value: ReadonlyMap<string, string>): void {
  overrides = value
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin
  }
  catch {
    return undefined
  }
}

interface ViolationEvent extends Event { effectiveDirective?: string, violatedDirective?: string, blockedURI?: string }

function recordViolation(event: ViolationEvent) {
  const directive = event.effectiveDirective ?? event.violatedDirective ?? ''
  if (!directive.startsWith('connect-src') && !directive.startsWith('default-src')) return
  const origin = originOf(event.blockedURI ?? '')
  if (!origin) return
  blockedOrigins.add(origin)
  for (const waiter of waiters) waiter(origin)
}

// Pages and workers only: Node's global is not an event target, and no policy applies there.
const scope = globalThis as { addEventListener?: (type: string, listener: (event: ViolationEvent) => void) => void, document?: unknown, importScripts?: unknown }
if (typeof scope.addEventListener === 'function' && (scope.document !== undefined || scope.importScripts !== undefined)) {
  scope.addEventListener('securitypolicyviolation', recordViolation)
}

function violationFor(origin: string, signal: AbortSignal | null | undefined): Promise<boolean> {
  if (blockedOrigins.has(origin)) return Promise.resolve(true)
  if (typeof scope.addEventListener !== 'function') return Promise.resolve(false)
  return new Promise((resolve) => {
    const finish = (blocked: boolean) => {
      clearTimeout(timer)
      waiters.delete(waiter)
      signal?.removeEventListener('abort', onAbort)
      resolve(blocked)
    }
    const waiter = (blocked: string) => blocked === origin && finish(true)
    const onAbort = () => finish(false)
    const timer = setTimeout(() => finish(false), VIOLATION_WAIT_MS)
    waiters.add(waiter)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** A fetch bound to `signal` (used unless `init.signal` is given), as handed to a tool's handler. */
export function createToolFetch(signal?: AbortSignal): ToolFetch {
  return async (input, init = {}) => {
    const url = overriddenUrl(String(input), overrides)
    const origin = originOf(url)
    const requestInit = { ...init, signal: init.signal ?? signal }
    // the page's policy is fixed while it lives: an origin it refused once is refused again, without a request
    if (origin && blockedOrigins.has(origin)) throw new ConnectBlockedError(origin)
    try {
      return await fetch(url, requestInit)
    }
    catch (error) {
      if (requestInit.signal?.aborted || !origin || !(error instanceof TypeError)) throw error
      if (await violationFor(origin, requestInit.signal)) throw new ConnectBlockedError(origin, { cause: error })
      throw error
    }
  }
}
