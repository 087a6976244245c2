import type { ToolDefinition, ToolFunctionInput } from '../../types/chat'
import type { ToolApprovalPolicy } from '../../types/server-tools'
import type { ToolCatalogMetadata } from '../../types/rich-tool-definition'

// What a tool's definition holds beside the OpenAI function: the same for the browser's registry, `defineTool` and the
// server, which registers the hybrid plugins' definitions.

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
 * Everything a tool's definition may say beside its OpenAI function: the one base of `RegisterableToolDefinition`
 * (what `registerTool` takes) and `DefineToolOptions` (what `defineTool` takes). Never sent to the model.
 */
export interface ToolDefinitionMetadata {
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
   * `'worker'`: the handler runs in a Web Worker that loads the tool's plugin file in `plugins/` (a function cannot
   * be moved into a worker), so heavy or runaway work cannot freeze the page and is killed at the timeout or on
   * Stop. The handler then sees only its arguments and `threadId`, `callId`, `status()` (no DOM, no localStorage)
   * and must return a structured-cloneable value. @default undefined (runs on the page)
   */
  sandbox?: ToolSandbox
  /** The tool reaches other hosts, spends money or changes something elsewhere: it asks first by default. */
  actsOutsideApp?: boolean
  /** The default approval policy (the user can change it). @default 'ask' when `actsOutsideApp`, else 'auto' */
  approval?: ToolApprovalPolicy
  /**
   * The origins the handler fetches from in the browser, e.g. `['https://api.open-meteo.com']`: https origins
   * alone (no path, no wildcard), at most 8. For a file in `plugins/`, the build adds them to the page's
   * Content-Security-Policy (`connect-src`); the page refuses any other origin. @default []
   */
  connects?: readonly string[]
  /** The catalog's metadata (design 003): slash command, cost, settings schema, version... Never sent to the model. */
  catalog?: ToolCatalogMetadata
}

/**
 * What `registerTool` accepts: the OpenAI function tool plus optional metadata. Only `type` and `function`
 * ever reach the model; `function.parameters` may be left out (→ `{ type: 'object', properties: {} }`).
 */
export interface RegisterableToolDefinition extends ToolDefinitionMetadata {
  type: 'function'
  function: ToolFunctionInput
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
