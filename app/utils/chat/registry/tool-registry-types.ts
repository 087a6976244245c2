import type { ComputedRef, Ref } from 'vue'
import type { ToolDefinition } from '#shared/types/chat'
import type { ToolHandler, ToolSet } from '#shared/tools/tool-types'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import type { ToolArgumentsOf } from '#shared/tools/definition/typed-tool-definition'
import type { ToolCatalogMetadata } from '#shared/types/rich-tool-definition'

import type { ToolAvailabilityContext, ToolAvailability, ToolSandbox, ToolUiMetadata, RegisterableToolDefinition, ResolvedToolUi, RegisteredToolDefinition } from '#shared/tools/definition/tool-definition-types'

export type { ToolAvailabilityContext, ToolAvailability, ToolSandbox, ToolUiMetadata, RegisterableToolDefinition, ResolvedToolUi, RegisteredToolDefinition }

/** Options of `registerTool`. */
export interface RegisterToolOptions {
  /** Replace a tool of the same name (keeps its position in the list). @default false */
  override?: boolean
  /** Initial enabled state; wins over the saved choice and the defaults. @default undefined */
  enabled?: boolean
}

/**
 * One registered tool (design 000's `RegisteredTool`). `enabled` and `lastError` are refs: `tool.enabled.value =
 * false` switches the tool off and saves the choice exactly as the popover's switch does. The object itself is
 * frozen and never made reactive (Vue would unwrap the refs).
 */
export interface RegisteredTool {
  readonly name: string
  /** The model-facing definition, with `definition.ui`. See `RegisteredToolDefinition`. */
  readonly definition: RegisteredToolDefinition
  /** Kept as given: the record is frozen, so Vue never proxies it. */
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
