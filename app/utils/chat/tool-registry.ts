import { computed, getCurrentScope, markRaw, onScopeDispose, shallowReactive } from 'vue'
import type { ToolDefinition } from '#shared/types/chat'
import type { ExecutableTool, ToolHandler, ToolSet } from '#shared/tools/tool-types'
import { DuplicateToolError } from './errors/duplicate-tool-error'
import { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error'
import { isSandboxedHandler } from './sandbox/worker-tool-sandbox'
import { checkAvailability } from './check-availability'
import { normalizeToolDefinition } from './tool-definition-validation'
import type {
  RegisterableToolDefinition, RegisteredTool, RegisterToolOptions, ToolAvailabilityContext, ToolRegistry, ToolStates,
} from './tool-registry-types'
import { createToolStatePersistence, TOOL_STATES_STORAGE_KEY } from './tool-state-storage'

export interface CreateToolRegistryOptions {
  /** Where enabled choices are saved. `null` (or absent) keeps them in memory only. @default null */
  storage?: Storage | null
  /** @default 'plugboard:tool-states:v1' */
  storageKey?: string
  /** Delay grouping quick toggles into one write. @default 150 */
  debounceMs?: number
}

type MutableTool = { -readonly [K in keyof RegisteredTool]: RegisteredTool[K] }

/**
 * Create a tool registry. Pure Vue reactivity, no Nuxt: node tests and benches use it directly; the app
 * uses the one from `getToolRegistry()`. Creating it reads the saved states (one localStorage key) and
 * does nothing else.
 */
export function createToolRegistry(options: CreateToolRegistryOptions = {}): ToolRegistry {
  const tools = shallowReactive(new Map<string, MutableTool>())
  const persistence = createToolStatePersistence({
    storage: options.storage ?? null,
    key: options.storageKey ?? TOOL_STATES_STORAGE_KEY,
    debounceMs: options.debounceMs,
    onExternalChange: applyStates,
  })
  // saved choices, including those of tools not registered (yet)
  // fresh and without prototype (a tool named '__proto__' is a plain key); mutated in place, since a copy
  // per toggle would make 10,000 toggles quadratic
  const savedStates: ToolStates = persistence.read()
  let pendingHydration: Promise<void> | undefined

  function applyStates(states: ToolStates) {
    Object.assign(savedStates, states)
    for (const [name, enabled] of Object.entries(states)) {
      const tool = tools.get(name)
      if (tool) tool.enabled = enabled
    }
  }

  function registerTool(definition: RegisterableToolDefinition, handler: ToolHandler, registerOptions: RegisterToolOptions = {}) {
    const normalized = normalizeToolDefinition(definition)
    if (typeof handler !== 'function') {
      throw new TypeError(`Tool "${normalized.name}": the handler must be a function (got ${typeof handler})`)
    }
    const { name } = normalized
    if (normalized.sandbox === 'worker' && !isSandboxedHandler(handler)) {
      // Refused rather than run on the page: the author asked for isolation and would silently not get it.
      throw new InvalidToolDefinitionError(name, 'sandbox', '"worker" needs a tool plugin file in plugins/ (the worker loads the handler from the file; a function cannot be moved into it)')
    }
    if (tools.has(name) && !registerOptions.override) throw new DuplicateToolError(name)

    const tool: MutableTool = shallowReactive({
      name,
      definition: markRaw(normalized.definition),
      handler: markRaw(handler),
      label: normalized.label,
      icon: normalized.icon,
      category: normalized.category,
      description: normalized.description,
      timeoutMs: normalized.timeoutMs,
      available: normalized.available && markRaw(normalized.available),
      unavailableReason: normalized.unavailableReason,
      notOfferedBecause: null,
      sandbox: normalized.sandbox,
      catalog: normalized.catalog && markRaw(normalized.catalog),
      enabled: registerOptions.enabled ?? savedStates[name] ?? normalized.defaultEnabled ?? true,
      lastError: null,
    })
    // Map.set on an existing key keeps its position: an override stays where the original was
    tools.set(name, tool)

    let disposed = false
    const dispose = () => {
      if (disposed) return
      disposed = true
      // a later override owns the name now: leave it alone
      if (tools.get(name) === tool) tools.delete(name)
    }
    if (getCurrentScope()) onScopeDispose(dispose)
    return dispose
  }

  const listTools = computed<readonly RegisteredTool[]>(() => [...tools.values()])

  function setEnabled(name: string, enabled: boolean): boolean {
    const tool = tools.get(name)
    if (!tool) return false
    tool.enabled = enabled
    if (savedStates[name] !== enabled) {
      savedStates[name] = enabled
      persistence.save(name, enabled)
    }
    return true
  }

  function hydrate(states: ToolStates | Promise<ToolStates>): Promise<void> {
    if (!(states instanceof Promise)) {
      applyStates(states)
      return Promise.resolve()
    }
    const hydration: Promise<void> = states.then(applyStates, (error: unknown) => {
      console.warn(`[plugboard] could not load saved tool states: ${(error as Error)?.message ?? error}`)
    }).finally(() => {
      if (pendingHydration === hydration) pendingHydration = undefined
    })
    pendingHydration = hydration
    return hydration
  }

  function getEnabledDefinitions(): ToolDefinition[] {
    const definitions: ToolDefinition[] = []
    for (const tool of tools.values()) {
      if (tool.enabled) definitions.push(tool.definition)
    }
    return definitions
  }


  async function getToolSet(context: ToolAvailabilityContext): Promise<ToolSet> {
    if (pendingHydration) await pendingHydration
    const enabled = [...tools.values()].filter(tool => tool.enabled)
    const reasons = await Promise.all(enabled.map(tool => checkAvailability(tool, context)))
    const offered = new Map<string, ExecutableTool>()
    enabled.forEach((tool, index) => {
      // shown in the popover, so a switch that is on but silently ignored says why
      tool.notOfferedBecause = reasons[index] ?? null
      if (reasons[index] !== undefined) return
      offered.set(tool.name, { definition: tool.definition, handler: tool.handler, timeoutMs: tool.timeoutMs })
    })
    return {
      definitions: [...offered.values()].map(tool => tool.definition),
      get: name => offered.get(name),
    }
  }

  function setLastError(name: string, message: string | null) {
    const tool = tools.get(name)
    if (tool) tool.lastError = message
  }

  return {
    registerTool,
    unregisterTool: name => tools.delete(name),
    getTool: name => tools.get(name),
    listTools,
    setEnabled,
    hydrate,
    getEnabledDefinitions,
    getToolSet,
    setLastError,
    flush: persistence.flush,
    dispose: persistence.dispose,
  }
}
