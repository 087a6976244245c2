import type { JsonSchemaObject, ToolDefinition } from '../../types/chat'
import { labelFromToolName } from './tool-label'
import type { ResolvedToolUi, ToolUiMetadata } from './tool-definition-types'

export const DEFAULT_TOOL_ICON = 'i-lucide-wrench'
export const DEFAULT_TOOL_CATEGORY = 'General'

/** The metadata `ui` is resolved from: the author's `ui` and the top-level aliases. */
export interface ToolUiSource {
  ui: ToolUiMetadata
  icon?: string
  category?: string
  defaultEnabled?: boolean
}

/**
 * A registered tool's definition: own enumerable `type` and `function` only, exactly the OpenAI JSON the model
 * receives (what `JSON.stringify`, spreads, `structuredClone` and deep equality see), frozen. `ui` is a getter on
 * the prototype, resolved on first read, so the design's `definition.ui` works without ever reaching a request
 * and registering stays one small object per tool.
 */
export class RegisteredToolDefinitionRecord implements ToolDefinition {
  readonly type = 'function' as const
  readonly function: ToolDefinition['function']
  readonly #source: ToolUiSource
  #ui?: Readonly<ResolvedToolUi>

  constructor(fn: { name: string, description?: string, parameters: JsonSchemaObject, strict?: boolean }, source: ToolUiSource) {
    this.function = Object.freeze(fn)
    this.#source = source
    Object.freeze(this)
  }

  get ui(): Readonly<ResolvedToolUi> {
    return (this.#ui ??= resolveUi(this.function.name, this.#source))
  }
}

function resolveUi(name: string, { ui, icon, category, defaultEnabled }: ToolUiSource): Readonly<ResolvedToolUi> {
  const resolved: ResolvedToolUi = {
    ...ui,
    label: ui.label?.trim() || labelFromToolName(name),
    icon: ui.icon || icon || DEFAULT_TOOL_ICON,
    category: ui.category?.trim() || category?.trim() || DEFAULT_TOOL_CATEGORY,
  }
  const enabledByDefault = ui.defaultEnabled ?? defaultEnabled
  if (enabledByDefault !== undefined) resolved.defaultEnabled = enabledByDefault
  return Object.freeze(resolved)
}
