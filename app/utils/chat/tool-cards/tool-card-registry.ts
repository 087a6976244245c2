import { markRaw, shallowReactive } from 'vue'
import type { Component } from 'vue'
import type { DefinedTool, ToolPlugin } from '#shared/tools/definition/define-tool'
import type { ToolCardData } from '../message-list/tool-card'

/**
 * What a tool's own card receives. `args` while the call is written or runs (parsed from the model's arguments;
 * undefined while they are not valid JSON yet), `result` once it is done (the handler's value as stored: parsed
 * JSON, or the text itself when it is not JSON), and the standard card's data for anything else.
 */
export interface ToolCardProps<Args = unknown, Result = unknown> {
  args: Args | undefined
  result: Result | undefined
  status: ToolCardData['status']
  /** The handler's latest progress text, while it runs. */
  statusText: string | undefined
  /** Everything the standard card shows (call id, label, error, duration...). */
  card: ToolCardData
}

/**
 * The props of a card for `Tool` (a `defineTool` result), typed from its parameters and its handler's result:
 * `defineProps<ToolCardPropsOf<typeof getCurrentTime>>()`.
 */
export type ToolCardPropsOf<Tool> = Tool extends ToolPlugin<infer Args, infer Result>
  ? ToolCardProps<Args, Result>
  : Tool extends DefinedTool<infer Args> ? ToolCardProps<Args> : ToolCardProps

/** The statuses a tool's own card renders; the others (approval, errors, denied, cancelled) keep the standard card. */
export const CUSTOM_CARD_STATUSES: ReadonlySet<ToolCardData['status']> = new Set(['queued', 'running', 'done'])

const cards = shallowReactive(new Map<string, Component>())

/**
 * Give a tool its own card, shown in the chat instead of the standard card's body while the call runs and when it
 * is done. Pass `defineAsyncComponent(() => import('./my-card.vue'))` so the card's code loads when a call of the
 * tool is first shown, not with the app. A card that throws (loading, setup or render) is replaced by the standard
 * card with a note. A later registration for the same name replaces the earlier one. Returns a disposer.
 */
export function registerToolCard(name: string, component: Component): () => void {
  if (typeof name !== 'string' || name.trim() === '') throw new TypeError('registerToolCard: the tool name must be a non-empty string')
  if (!component || (typeof component !== 'object' && typeof component !== 'function')) {
    throw new TypeError(`registerToolCard("${name}"): the card must be a Vue component (e.g. defineAsyncComponent(() => import('./card.vue')))`)
  }
  const raw = markRaw(component)
  cards.set(name, raw)
  return () => {
    if (cards.get(name) === raw) cards.delete(name)
  }
}

/** The card registered for a tool (reactive: a card registered later shows on calls already in the chat). */
export function getToolCard(name: string): Component | undefined {
  return cards.get(name)
}
