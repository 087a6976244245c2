import type { LoadToolPluginsResult } from './load-tool-plugins'

let loading: Promise<LoadToolPluginsResult | undefined> | undefined

/** Called once by the client plugin with the promise of `loadToolPlugins(...)`. */
export function setToolPluginsLoading(promise: Promise<LoadToolPluginsResult>): void {
  // a loader failure is already logged per file; waiting callers must never reject because of it
  loading = promise.catch(() => undefined)
}

/**
 * Resolves when the tool plugins of `plugins/` are registered. useChat awaits it before the first send so
 * that the first request offers every tool. Resolves at once when no loading was started (tests, server).
 */
export function toolPluginsReady(): Promise<LoadToolPluginsResult | undefined> {
  return loading ?? Promise.resolve(undefined)
}
