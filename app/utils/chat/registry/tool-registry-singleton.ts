import { createToolRegistry } from '../tool-registry'
import type { ToolRegistry } from './tool-registry-types'

const REGISTRY_KEY = Symbol.for('plugboard.toolRegistry')

type GlobalWithRegistry = typeof globalThis & { [REGISTRY_KEY]?: ToolRegistry }

let serverRegistry: ToolRegistry | undefined
let warnedOnServer = false

/** True during server rendering (only possible if `ssr` is turned on) and in plain Node. */
export function isServerEnvironment(): boolean {
  return typeof window === 'undefined' || (import.meta as { server?: boolean }).server === true
}

/**
 * The app's one tool registry, kept on `globalThis` under `Symbol.for('plugboard.toolRegistry')` so that
 * hot reload of this module keeps every registered tool and the user's choices.
 *
 * Client only. On the server (no `window`) it returns an empty registry whose `registerTool` does nothing,
 * returns a disposer and warns once: tool plugins may be imported anywhere without crashing server
 * rendering, and no tool state leaks between requests.
 */
export function getToolRegistry(): ToolRegistry {
  if (isServerEnvironment()) return (serverRegistry ??= createServerRegistry())
  const holder = globalThis as GlobalWithRegistry
  // on the dev server a module that registers a tool runs again on hot reload: replace rather than throw
  return (holder[REGISTRY_KEY] ??= createToolRegistry({ storage: safeLocalStorage(), replaceDuplicates: Boolean((import.meta as { hot?: unknown }).hot) }))
}

/** Same as `getToolRegistry()`. */
export const useToolRegistrySingleton = getToolRegistry

function safeLocalStorage(): Storage | null {
  try {
    // throws SecurityError when storage is blocked (sandboxed iframe, some privacy modes)
    return window.localStorage
  }
  catch {
    return null
  }
}

function createServerRegistry(): ToolRegistry {
  const registry = createToolRegistry({ storage: null })
  return {
    ...registry,
    registerTool() {
      if (!warnedOnServer) {
        warnedOnServer = true
        console.warn('[plugboard] registerTool() was called on the server; the tool registry is client-only, so this call does nothing.')
      }
      return () => {}
    },
  }
}
