import type { RichToolDefinition } from '../../types/rich-tool-definition'
import { normalizeCommandName } from './to-rich-tool-definition'
import { validateRichDefinitions } from './validate-rich-definitions'
import type { CatalogValidation } from './validate-rich-definitions'

/** Design 003's ToolRegistry: lookups over rich definitions for commands, the catalog page and the export. */
export interface ToolCatalog {
  /** Every definition, in the order given. */
  getAll: () => RichToolDefinition[]
  getById: (toolId: string) => RichToolDefinition | undefined
  /** By slash command, with or without its slash, any case: 'calc', '/calc', '/CALC'. */
  findByCommand: (command: string) => RichToolDefinition | undefined
  /** By display name, ignoring case and surrounding spaces. */
  findByDisplayName: (name: string) => RichToolDefinition | undefined
  /** The categories in use (`metadata.category`, else 'General'), sorted. */
  getCategories: () => string[]
  /** Problems of the definitions, alone and together (duplicate ids or commands). */
  validate: () => CatalogValidation
}

export const DEFAULT_CATALOG_CATEGORY = 'General'

/** The category a definition is listed under. */
export function categoryOf(definition: RichToolDefinition): string {
  const category = definition.metadata?.category
  return typeof category === 'string' && category.trim() ? category : DEFAULT_CATALOG_CATEGORY
}

/**
 * A catalog over `definitions` (an array, or a function returning the current ones, so a reactive list stays
 * current). Lookups take the first match, which is also the one `validate()` does not report as a duplicate.
 */
export function createToolCatalog(definitions: readonly RichToolDefinition[] | (() => readonly RichToolDefinition[])): ToolCatalog {
  const current = typeof definitions === 'function' ? definitions : () => definitions
  const find = (test: (definition: RichToolDefinition) => boolean) => current().find(test)
  return {
    getAll: () => [...current()],
    getById: toolId => find(definition => definition.toolId === toolId),
    findByCommand(command) {
      const wanted = normalizeCommandName(command)
      return find(definition => typeof definition.commandName === 'string' && normalizeCommandName(definition.commandName) === wanted)
    },
    findByDisplayName(name) {
      const wanted = name.trim().toLowerCase()
      return find(definition => typeof definition.displayName === 'string' && definition.displayName.trim().toLowerCase() === wanted)
    },
    getCategories: () => [...new Set(current().map(categoryOf))].sort((a, b) => a.localeCompare(b)),
    validate: () => validateRichDefinitions(current()),
  }
}
