import type { ExecutableTool, ToolSet } from './tool-types'

/**
 * A ToolSet over a fixed list of tools, in the given order. A later tool with the same name replaces
 * the earlier one, so the model never sees two definitions with one name.
 */
export function toolSetFromArray(tools: ExecutableTool[]): ToolSet {
  const byName = new Map<string, ExecutableTool>()
  for (const tool of tools) byName.set(tool.definition.function.name, tool)
  const list = [...byName.values()]
  return {
    definitions: list.map(tool => tool.definition),
    // A Map lookup, so a model naming `__proto__` or `toString` finds nothing.
    get: name => byName.get(name),
  }
}
