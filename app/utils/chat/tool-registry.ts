import { computed, getCurrentScope, onScopeDispose, shallowReactive } from 'vue'
import type { ToolDefinition } from '#shared/types/chat'
import type { ExecutableTool, ToolHandler, ToolSet } from '#shared/tools/tool-types'
import { DuplicateToolError } from './registry/errors/duplicate-tool-error'
import { InvalidToolDefinitionError } from '#shared/errors/invalid-tool-definition-error'
import { isSandboxedHandler } from './sandbox/worker-tool-sandbox'
import { checkAvailability } from './registry/check-availability'
import { normalizeToolDefinition } from '#shared/tools/definition/tool-definition-validation'
import { RegisteredToolRecord } from './registry/registered-tool'
import type {
  RegisterableToolDefinition, RegisteredTool, RegisterToolOptions, ToolAvailabilityContext, ToolListAccessor, ToolRegistry,
  ToolStates,
} from './registry/tool-registry-types'
import { createToolStatePersistence, TOOL_STATES_STORAGE_KEY } from './registry/tool-state-storage'

// The shapes design 000 shows in this module, under its names.
export type { ExtendedToolDefinition, RegisteredTool, ToolHandler } from './types'

export interface CreateToolRegistryOptions {
  /** Where enabled choices are saved. `null` (or absent) keeps them in memory only. @default null */
  storage?: Storage | null
  /** @default 'plugboard:tool-states:v1' */
  storageKey?: string
  /** Delay grouping quick toggles into one write. @default 150 */
  debounceMs?: number
  /**
   * A name registered again replaces the earlier tool, with a warning, instead of throwing DuplicateToolError:
   * on a dev server a module that registers a tool runs again on hot reload before its old copy is gone.
   * @default false (the app's registry: true on the dev server only)
   */
  replaceDuplicates?: boolean
}

/**
 * Create a tool registry. Pure Vue reactivity, no Nuxt: node tests and benches use it directly; the app
 * uses the one from `getToolRegistry()`. Creating it reads the saved states (one localStorage key) and
 * does nothing else.
 */
export function createToolRegistry(options: CreateToolRegistryOptions = {}): ToolRegistry {
  // shallow: the records are frozen and hold their own refs; only adding, replacing and removing is tracked
  const tools = shallowReactive(new Map<string, RegisteredToolRecord>())
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
    for (const [name, enabled] of Object.entries(states)) tools.get(name)?.applyEnabled(enabled)
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
    if (!registerOptions.override && tools.has(name)) {
      if (!options.replaceDuplicates) throw new DuplicateToolError(name)
      console.warn(`[plugboard] tool "${name}" was registered again and replaces the earlier one (hot reload on the dev server). A production build refuses this with DuplicateToolError unless { override: true } is passed.`)
    }

    const tool = new RegisteredToolRecord(
      normalized,
      handler,
      registerOptions.enabled ?? savedStates[name] ?? normalized.defaultEnabled ?? true,
      saveChoice,
    )
    // Map.set on an existing key keeps its position: an override stays where the original was
    tools.set(name, tool)

    let disposed = false
    const dispose = () => {
      if (disposed) return
      disposed = true
      // a later override owns the name now: leave it alone
      if (tools.get(name) === tool) unregisterTool(name)
    }
    if (getCurrentScope()) onScopeDispose(dispose)
    return dispose
  }

  const toolList = computed<readonly RegisteredTool[]>(() => [...tools.values()])

  function unregisterTool(name: string): boolean {
    return tools.delete(name)
  }

  function getTool(name: string): RegisteredTool | undefined {
    return tools.get(name)
  }

  const listTools = Object.defineProperty(() => toolList, 'value', { get: () => toolList.value }) as ToolListAccessor

  function saveChoice(name: string, enabled: boolean) {
    if (savedStates[name] === enabled) return
    savedStates[name] = enabled
    persistence.save(name, enabled)
  }

  function setEnabled(name: string, enabled: boolean): boolean {
    const tool = tools.get(name)
    if (!tool) return false
    tool.enabled.value = enabled
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
      if (tool.enabled.value) definitions.push(tool.definition)
    }
    return definitions
  }


  async function getToolSet(context: ToolAvailabilityContext): Promise<ToolSet> {
    if (pendingHydration) await pendingHydration
    const enabled = [...tools.values()].filter(tool => tool.enabled.value)
    const reasons = await Promise.all(enabled.map(tool => checkAvailability(tool, context)))
    const offered = new Map<string, ExecutableTool>()
    enabled.forEach((tool, index) => {
      // shown in the popover, so a switch that is on but silently ignored says why
      tool.setNotOfferedBecause(reasons[index] ?? null)
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
    if (tool) tool.lastError.value = message
  }

  return {
    registerTool,
    unregisterTool,
    getTool,
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
