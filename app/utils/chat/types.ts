/**
 * The types design 000 names at `~/utils/chat/types`: the OpenAI function tool with its optional `ui` metadata, and
 * the registry's shapes under the names the design uses (`ExtendedToolDefinition`, `ToolHandler`, `RegisteredTool`).
 */
import type { ToolDefinition as FunctionToolDefinition } from '#shared/types/chat'
import type { RegisterableToolDefinition, ToolUiMetadata } from './registry/tool-registry-types'

/** An OpenAI function tool, with the optional `ui` metadata the popover reads. */
export interface ToolDefinition extends FunctionToolDefinition {
  ui?: ToolUiMetadata
}

/** What `registerTool` takes: a `ToolDefinition` plus the top-level metadata aliases (description, icon...). */
export type ExtendedToolDefinition = RegisterableToolDefinition

export type { ToolHandler, ToolExecutionContext } from '#shared/tools/tool-types'
export type { RegisteredTool, RegisterToolOptions, ToolUiMetadata, ToolRegistry } from './registry/tool-registry-types'
