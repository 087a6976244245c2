import type { ToolFetch } from './tool-fetch'

/**
 * `createToolFetch(signal)` with its module loaded by the first request: most calls never fetch, and the page's
 * first screen registers every plugin without needing it. The module starts listening for the page's policy
 * violations when it loads, which is before that first request leaves.
 */
export function lazyToolFetch(signal: AbortSignal): ToolFetch {
  return async (input, init) => (await import('./tool-fetch')).createToolFetch(signal)(input, init)
}
