import { globalEnabled, type ToolChoices } from '../tool-set/tool-choice-overlay'
import type { RegisteredTool } from '../registry/tool-registry-types'

type ToolSwitch = Parameters<typeof globalEnabled>[0]

/**
 * A chat's own tool switches for a preset's tools: each registered tool on when the preset names it, off otherwise,
 * kept only where that differs from All chats (the form `ThreadRecord.toolChoices` holds). A preset that names no
 * list (undefined) leaves the chat on All chats.
 */
export function presetToolChoices(tools: readonly (RegisteredTool | ToolSwitch)[], presetTools: readonly string[] | undefined): ToolChoices | undefined {
  if (!presetTools) return undefined
  const wanted = new Set(presetTools)
  const choices: Record<string, boolean> = {}
  for (const tool of tools) {
    const on = wanted.has(tool.name)
    if (on !== globalEnabled(tool)) choices[tool.name] = on
  }
  return choices
}
