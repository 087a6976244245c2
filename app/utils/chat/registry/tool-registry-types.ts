import type { ComputedRef, Ref } from 'vue'
import type { ToolDefinition, ToolFunctionInput } from '#shared/types/chat'
import type { ToolHandler, ToolSet } from '#shared/tools/tool-types'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import type { ToolArgumentsOf } from './typed-tool-definition'
import type { ToolCatalogMetadata } from '#shared/types/rich-tool-definition'

/** Context given to a tool's availability predicate, once per request. */
export interface ToolAvailabilityContext {
  threadId: string
  /** Aborted when the user presses Stop while the send waits for availability checks. */
  signal?: AbortSignal
}

/** Decides, for each request, whether the tool is offered to the model (on top of the user's switch). */
export type ToolAvailability = (context: ToolAvailabilityContext) => boolean | Promise<boolean>

/**
 * Where a tool's handler runs. `'worker'`: in a dedicated module Web Worker that loads the tool's plugin file,
 * so a runaway handler cannot freeze the page and is killed on timeout or Stop. Only for files in `plugins/`.
 */
export type ToolSandbox = 'worker'

/** How a tool looks in the composer popover. Never sent to the model. */
export interface ToolUiMetadata {
  /** Switch label. @default derived from the name: 'get_weather' → 'Get weather' */
  label?: string
  /** Iconify name. @default 'i-lucide-wrench' */
  icon?: string
  /** Helper text under the switch; replaces the model-facing description in the UI only. */
  descriptionHint?: string
  /** Enabled state before the user chooses. Wins over the top-level `defaultEnabled`. @default true */
  defaultEnabled?: boolean
  /** Heading the tool is grouped under. @default 'General' */
  category?: string
}

/**
 * What `registerTool` accepts: the OpenAI function tool plus optional metadata. Only `type` and `function`
 * ever reach the model; `function.parameters` may be left out (→ `{ type: 'object', properties: {} }`).
 */
export interface RegisterableToolDefinition {
  type: 'function'
  function: ToolFunctionInput
  ui?: ToolUiMetadata
  /** UI description when `ui.descriptionHint` is absent; model description when `function.description` is. */
  description?: string
  /** Same as `ui.icon` (which wins). */
  icon?: string
  /** Same as `ui.category` (which wins). */
  category?: string
  /** Same as `ui.defaultEnabled` (which wins). @default true */
  defaultEnabled?: boolean
  /** Per-tool timeout in ms, passed to the executor. @default the executor's (10 000) */
  timeoutMs?: number
  /** Availability predicate, evaluated for each request. A throwing predicate makes the tool unavailable. */
  available?: ToolAvailability
  /** Why the tool is not offered when `available` says no, shown in the popover. @default 'Not available right now' */
  unavailableReason?: string
  /**
   * Run the handler in a Web Worker. The handler must then be the one the plugin loader builds from a file in
   * `plugins/` (a function cannot be moved into a worker). @default undefined (on the page)
   */
  sandbox?: ToolSandbox
  /** The tool reaches other hosts, spends money or changes something elsewhere: it asks first by default. */
  actsOutsideApp?: boolean
  /** The default approval policy (the user can change it). @default 'ask' when `actsOutsideApp`, else 'auto' */
  approval?: ToolApprovalPolicy
  /** The catalog's metadata (design 003): slash command, cost, settings schema, version... Never sent to the model. */
  catalog?: ToolCatalogMetadata
}

/** Options of `registerTool`. */
export interface RegisterToolOptions {
  /** Replace a tool of the same name (keeps its position in the list). @default false */
  override?: boolean
  /** Initial enabled state; wins over the saved choice and the defaults. @default undefined */
  enabled?: boolean
}

/** A tool's `ui` as the registry resolved it: the author's fields, with the label, icon and category filled in. */
export interface ResolvedToolUi extends ToolUiMetadata {
  label: string
  icon: string
  category: string
}

/**
 * A registered tool's definition: exactly the OpenAI JSON the model receives (deep-frozen), plus its `ui`
 * metadata as a non-enumerable property, so `definition.ui` reads as the design says while
 * `JSON.stringify(definition)` (a request body) never carries it.
 */
export type RegisteredToolDefinition = ToolDefinition & { readonly ui: Readonly<ResolvedToolUi> }

/**
 * One registered tool (design 000's `RegisteredTool`). `enabled` and `lastError` are refs: `tool.enabled.value =
 * false` switches the tool off and saves the choice exactly as the popover's switch does. The object itself is
 * frozen and never made reactive (Vue would unwrap the refs).
 */
export interface RegisteredTool {
  readonly name: string
  /** The model-facing definition, with `definition.ui`. See `RegisteredToolDefinition`. */
  readonly definition: RegisteredToolDefinition
  /** Stored raw (markRaw): never a proxy. */
  readonly handler: ToolHandler
  readonly label: string
  readonly icon: string
  readonly category: string
  /** Text shown under the switch ('' when the tool has none). */
  readonly description: string
  readonly timeoutMs?: number
  readonly available?: ToolAvailability
  readonly unavailableReason?: string
  /** Why the last request did not offer this tool although it is on; null when it was offered. Reactive. */
  readonly notOfferedBecause: string | null
  /** Set when the handler runs in a Web Worker rather than on the page. */
  readonly sandbox?: ToolSandbox
  /** The approval policy before the user chooses one (see `tool-policies.ts` for the one in force). */
  readonly defaultApproval: ToolApprovalPolicy
  /** The catalog's metadata as declared (plain JSON, frozen). */
  readonly catalog?: ToolCatalogMetadata
  /**
   * On or off. Initialised `options.enabled ?? saved choice ?? definition.ui.defaultEnabled ?? true`. Writing it
   * saves the choice (debounced, one localStorage key); a non-boolean is refused with a TypeError.
   */
  readonly enabled: Ref<boolean>
  /** Message of the last failed run; cleared by the next successful one. */
  readonly lastError: Ref<string | null>
}

/**
 * `listTools()`: every registered tool in registration order, as one computed list (the same one on every call).
 * `listTools.value` reads the list too, for code written when `listTools` was the computed itself.
 */
export type ToolListAccessor = (() => ComputedRef<readonly RegisteredTool[]>) & { readonly value: readonly RegisteredTool[] }

/** Saved enabled choices, by tool name. */
export type ToolStates = Record<string, boolean>

/** The client tool registry. Create one with `createToolRegistry()`; the app uses `getToolRegistry()`. */
export interface ToolRegistry {
  /**
   * Register a tool. A definition made by `defineTool` types the handler's arguments. Returns a disposer that unregisters it; called inside an effect scope (a component's
   * setup), the tool is unregistered when the scope is disposed.
   * @throws DuplicateToolError when the name is taken and `override` is not set
   * @throws InvalidToolDefinitionError when the name, the parameters schema or the metadata is invalid
   */
  registerTool: <D extends RegisterableToolDefinition>(definition: D, handler: ToolHandler<ToolArgumentsOf<D>>, options?: RegisterToolOptions) => () => void
  /** Returns true when a tool was removed. The user's saved choice is kept for when it registers again. */
  unregisterTool: (name: string) => boolean
  getTool: (name: string) => RegisteredTool | undefined
  /** Every registered tool in registration order (an override keeps the original position). */
  listTools: ToolListAccessor
  /** Switch a tool on or off and save the choice. Returns false when no such tool is registered. */
  setEnabled: (name: string, enabled: boolean) => boolean
  /**
   * Apply saved states: registered tools switch now, the others when they register. A promise is awaited
   * by `getToolSet()` before it answers.
   */
  hydrate: (states: ToolStates | Promise<ToolStates>) => Promise<void>
  /** Definitions of enabled tools as pure OpenAI JSON (no availability check), in registration order. */
  getEnabledDefinitions: () => ToolDefinition[]
  /** The tools for one request: enabled and available, in registration order. */
  getToolSet: (context: ToolAvailabilityContext) => Promise<ToolSet>
  /**
   * Sets (a message) or clears (null) a tool's `lastError`; a name nobody registered is ignored. Called by the
   * listener that follows a run's LoopEvents (tool-error-listener.ts), not by the executor.
   */
  setLastError: (name: string, message: string | null) => void
  /** Write pending state changes to storage now. */
  flush: () => void
  /** Flush, then remove storage and page listeners. The tools stay registered. */
  dispose: () => void
}
