/**
 * The server tool registry's contract, shared by the server (registry, /api/tools routes) and the browser (which
 * lists server tools in its popover and runs them through the execute route).
 */
import type { ToolFunctionInput } from './chat'
import type { RichToolDefinition, ToolCatalogMetadata } from './rich-tool-definition'

/**
 * Where a tool's handler may run. `hybrid`: the same code runs in the tab or on the server; `server`: only on the
 * server (it needs the network, secrets or Node); `client`: only in the browser (the server refuses to run it).
 */
export type ToolRuntime = 'hybrid' | 'client' | 'server'

/**
 * Whether a call runs without asking: 'auto' runs it, 'ask' waits for the user's Allow once / Always allow / Deny,
 * 'never' refuses it. The default is the tool's `approval`, else 'ask' when it `actsOutsideApp`, else 'auto';
 * the user changes it per tool in the popover.
 */
export type ToolApprovalPolicy = 'auto' | 'ask' | 'never'

/** How a server tool looks in the composer popover. Never sent to the model. Same fields as the browser's. */
export interface ServerToolUiMetadata {
  label?: string
  icon?: string
  descriptionHint?: string
  /** @default true */
  defaultEnabled?: boolean
  category?: string
}

/**
 * What `registerServerTool` accepts: the OpenAI function tool plus metadata, the same shape as a browser tool's
 * definition (a `defineTool(...)` plugin's `definition` fits as it is).
 */
export interface ServerToolDefinition {
  type: 'function'
  function: ToolFunctionInput
  ui?: ServerToolUiMetadata
  description?: string
  icon?: string
  category?: string
  defaultEnabled?: boolean
  /** @default 10_000 */
  timeoutMs?: number
  /** @default 'hybrid' */
  runtime?: ToolRuntime
  /**
   * The tool acts outside the app: it reaches other hosts, spends money or changes something elsewhere. Such
   * tools are meant to ask the user before they run. @default false
   */
  actsOutsideApp?: boolean
  /** The default approval policy. @default 'ask' when `actsOutsideApp`, else 'auto' */
  approval?: ToolApprovalPolicy
  /** The catalog's metadata (design 003): slash command, cost, settings, version... */
  catalog?: ToolCatalogMetadata
}

/** One entry of `GET /api/tools`. */
export interface ServerToolInfo {
  name: string
  /** The definition as registered, with its metadata (`ui`, `icon`, `category`, `description`...). */
  definition: ServerToolDefinition
  runtime: ToolRuntime
  timeoutMs: number
  actsOutsideApp: boolean
}

/** The body of `GET /api/tools`. */
export interface ServerToolList {
  tools: ServerToolInfo[]
  /**
   * Every server tool as a rich definition (design 003), then the static ones of `NUXT_TOOL_REGISTRY_FILE`
   * (`metadata.static: true`: listed, never offered, since the server has no handler for them).
   */
  catalog?: RichToolDefinition[]
}

/** The body of `POST /api/tools/:name/execute`: the arguments as the model wrote them (JSON text). */
export interface ServerToolExecuteRequest {
  arguments: string
}

/** What `executeServerTool` returns, and the execute route answers. */
export interface ServerToolExecution {
  /** The tool's output (cut to the size cap with a note), or null when it failed. */
  result: string | null
  toolName: string
  timedOut: boolean
  /** Why the tool gave no result: not registered, client-only, invalid arguments, a throw, the timeout. */
  error?: string
  runtime?: ToolRuntime
}
