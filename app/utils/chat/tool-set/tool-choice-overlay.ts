import { shallowReactive, unref, type MaybeRef } from 'vue'
import type { ExecutableTool, ToolSet } from '#shared/tools/tool-types'
import { checkAvailability } from '../registry/check-availability'
import type { RegisteredTool, ToolAvailabilityContext, ToolRegistry } from '../registry/tool-registry-types'

/**
 * Tool choice per chat: a chat's own switches, by tool name, laid over the global ones (All chats). Only
 * the tools whose switch differs in the chat are listed; any other tool follows the global switch.
 */
export type ToolChoices = Readonly<Record<string, boolean>>

/** The parts of a registered tool the overlay reads. `enabled` may be a plain value or a ref. */
type ToolSwitch = Pick<RegisteredTool, 'name'> & { readonly enabled: MaybeRef<boolean> }

/** The global (All chats) switch of a tool. */
export function globalEnabled(tool: ToolSwitch): boolean {
  return unref(tool.enabled)
}

/** Whether a tool is on in a chat: its own choice there, else the global switch. */
export function isEnabledInChat(tool: ToolSwitch, choices: ToolChoices | undefined): boolean {
  const own = choices && Object.hasOwn(choices, tool.name) ? choices[tool.name] : undefined
  return typeof own === 'boolean' ? own : globalEnabled(tool)
}

/** How many of these tools are switched differently in the chat than in All chats ("2 changed in this chat"). */
export function countChangedInChat(tools: readonly ToolSwitch[], choices: ToolChoices | undefined): number {
  return tools.filter(tool => isEnabledInChat(tool, choices) !== globalEnabled(tool)).length
}

/**
 * The chat's choices after the user switches `tool` to `enabled` in this chat. A choice equal to the global switch
 * is dropped, so the chat follows All chats again for that tool. Returns a fresh object without prototype.
 */
export function withChatChoice(choices: ToolChoices | undefined, tool: ToolSwitch, enabled: boolean): Record<string, boolean> {
  const next: Record<string, boolean> = Object.create(null)
  for (const [name, value] of Object.entries(choices ?? {})) {
    if (typeof value === 'boolean') next[name] = value
  }
  if (enabled === globalEnabled(tool)) delete next[tool.name]
  else next[tool.name] = enabled
  return next
}

export interface ChatToolSetOptions {
  /** The chat's own choices (read at every send, so a choice made a moment ago counts). */
  readChoices: (threadId: string) => Promise<ToolChoices | undefined>
}

/**
 * `getToolSet` for one chat's request: the registry's set (the globally enabled and available tools) without the
 * tools switched off in this chat, plus the tools switched on only in this chat that are available. Built on the
 * registry's public API only, in registration order.
 */
export function createChatToolSet(registry: Pick<ToolRegistry, 'getToolSet' | 'listTools'>, options: ChatToolSetOptions) {
  /** Why a tool switched on only in a chat was not offered on its last request there (the registry keeps the rest). */
  const notOffered = shallowReactive(new Map<string, string>())

  async function getToolSet(context: ToolAvailabilityContext): Promise<ToolSet> {
    const [base, choices] = await Promise.all([registry.getToolSet(context), options.readChoices(context.threadId)])
    if (!choices || Object.keys(choices).length === 0) return base
    const tools = registry.listTools.value
    const onlyHere = tools.filter(tool => !globalEnabled(tool) && isEnabledInChat(tool, choices))
    const reasons = await Promise.all(onlyHere.map(tool => checkAvailability(tool, context)))
    const added = new Map<string, ExecutableTool>()
    onlyHere.forEach((tool, index) => {
      const reason = reasons[index]
      if (reason !== undefined) notOffered.set(tool.name, reason)
      else {
        notOffered.delete(tool.name)
        added.set(tool.name, { definition: tool.definition, handler: tool.handler, timeoutMs: tool.timeoutMs })
      }
    })
    const offered = new Map<string, ExecutableTool>()
    for (const tool of tools) {
      if (!isEnabledInChat(tool, choices)) continue
      const executable = added.get(tool.name) ?? base.get(tool.name)
      if (executable) offered.set(tool.name, executable)
    }
    return {
      definitions: [...offered.values()].map(tool => tool.definition),
      get: name => offered.get(name),
    }
  }

  return {
    getToolSet,
    /** Why a tool switched on only in a chat was not offered there last time (reactive); undefined if it was. */
    notOfferedBecause: (name: string): string | undefined => notOffered.get(name),
  }
}
