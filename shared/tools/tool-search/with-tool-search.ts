import type { ModelMessage, ToolDefinition } from '../../types/chat'
import type { ExecutableTool, ToolSet } from '../tool-types'
import { FIND_TOOLS_LIMIT, FIND_TOOLS_NAME, findToolsDefinition, findToolsResult, toolsLoadedIn } from './find-tools-tool'
import { createToolSearchIndex } from './tool-search-index'
import type { ToolSearchIndex } from './tool-search-index'

import { DEFAULT_TOOL_SEARCH_THRESHOLD } from './tool-search-threshold'

export { DEFAULT_TOOL_SEARCH_THRESHOLD }

export interface ToolSearchOptions {
  /** Tool search starts above this many tools. @default DEFAULT_TOOL_SEARCH_THRESHOLD */
  threshold?: number
  /** Tools always offered, by name (the small set a request carries besides `find_tools`). @default none */
  alwaysOn?: Iterable<string>
  /** The history the run starts from: tools that earlier `find_tools` results loaded are offered again. @default [] */
  history?: readonly ModelMessage[]
  /** Tools one search loads at most. @default FIND_TOOLS_LIMIT */
  limit?: number
}

/** A ToolSet that grows: the loop reads `definitions` at every step, so tools found in one step are offered in the next. */
export interface SearchableToolSet extends ToolSet {
  /** Names offered now besides `find_tools`, in the base set's order. */
  offered: () => string[]
}

/**
 * Tool search over `base`: when it holds more tools than the threshold, the model is offered the always-on tools
 * and `find_tools`, which searches the rest (names, descriptions, parameters) and adds what it finds to the
 * requests that follow. Only offered tools run: a call to a tool not found yet is an unknown tool, as for any tool
 * the model was not given. At or under the threshold `base` is returned as it is.
 */
export function withToolSearch(base: ToolSet, options: ToolSearchOptions = {}): ToolSet | SearchableToolSet {
  const { threshold = DEFAULT_TOOL_SEARCH_THRESHOLD, limit = FIND_TOOLS_LIMIT } = options
  const all = base.definitions
  if (all.length <= threshold || base.get(FIND_TOOLS_NAME)) return base
  const known = new Set(all.map(definition => definition.function.name))
  const loaded = new Set<string>()
  for (const name of [...(options.alwaysOn ?? []), ...toolsLoadedIn(options.history ?? [])]) {
    if (known.has(name)) loaded.add(name)
  }
  // Built on the first search only: a run that never searches pays nothing for it.
  let index: ToolSearchIndex | undefined

  const offeredDefinitions = (): ToolDefinition[] => all.filter(definition => loaded.has(definition.function.name))

  const findTools: ExecutableTool = {
    definition: findToolsDefinition,
    handler: (args: { query: string }) => {
      index ??= createToolSearchIndex(all)
      const names = index.search(args.query, limit + loaded.size).filter(name => known.has(name))
      const fresh = names.filter(name => !loaded.has(name)).slice(0, limit)
      const already = names.slice(0, limit).filter(name => loaded.has(name))
      for (const name of fresh) loaded.add(name)
      const byName = new Map(all.map(definition => [definition.function.name, definition]))
      return findToolsResult(args.query, fresh.map(name => byName.get(name)!), already)
    },
  }

  return {
    get definitions() {
      return [...offeredDefinitions(), findToolsDefinition]
    },
    get: name => (name === FIND_TOOLS_NAME ? findTools : loaded.has(name) ? base.get(name) : undefined),
    offered: () => offeredDefinitions().map(definition => definition.function.name),
  }
}
