import theme from '#build/ui/button'
import { tv } from '#ui/utils/tv'

/** One fixed look of Nuxt UI's button (the props `UButton` takes for it). */
export interface ButtonLook {
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl'
  color?: 'primary' | 'secondary' | 'success' | 'info' | 'warning' | 'error' | 'neutral'
  variant?: 'solid' | 'outline' | 'soft' | 'subtle' | 'ghost' | 'link'
  /** An icon after the text. */
  trailing?: boolean
  /** An icon before the text. */
  leading?: boolean
  /** An icon and no text. */
  square?: boolean
}

/** The classes of each part of a button of one look. */
export interface ButtonClasses {
  base: string
  label: string
  leadingIcon: string
  trailingIcon: string
}

const classesByLook = new Map<string, ButtonClasses>()

/** The looks of the chat list's row buttons and the tool card's details toggle. */
export const CHAT_LIST_BUTTON = { size: 'xs', color: 'neutral', variant: 'ghost', leading: true, square: true } as const satisfies ButtonLook
export const CHAT_LIST_CANCEL_BUTTON = { size: 'xs', color: 'neutral', variant: 'ghost' } as const satisfies ButtonLook
export const CHAT_LIST_CONFIRM_BUTTON = { size: 'xs', color: 'error', variant: 'solid' } as const satisfies ButtonLook
export const TOOL_DETAILS_BUTTON = { size: 'xs', color: 'neutral', variant: 'ghost', trailing: true } as const satisfies ButtonLook

/**
 * The app config's button overrides (`ui.button`), the same for the page's life: the cache is keyed by look only.
 */
export type ButtonOverrides = Record<string, unknown> | undefined

/** The app config's `ui.button` (Nuxt UI's types name only the config's keys the app sets). */
export function buttonOverridesOf(appConfig: unknown): ButtonOverrides {
  return (appConfig as { ui?: { button?: ButtonOverrides } } | undefined)?.ui?.button
}

/**
 * The classes `UButton` gives a button of this look (its theme, with the app config's overrides), worked out once
 * per look instead of once per button: a list that shows one small button per item (a tool card's "View details")
 * pays for Nuxt UI's class merging, and for the three components `UButton` renders, on every item it mounts.
 * A plain `<button>` with these classes looks the same. For buttons that do not change their look.
 */
export function buttonClasses(look: ButtonLook, overrides?: ButtonOverrides): ButtonClasses {
  const key = JSON.stringify(look)
  const known = classesByLook.get(key)
  if (known) return known
  const slots = tv({ extend: tv(theme), ...overrides })({ ...look, loading: false, block: false, square: look.square ?? false })
  const classes: ButtonClasses = {
    base: slots.base(),
    label: slots.label(),
    leadingIcon: slots.leadingIcon(),
    trailingIcon: slots.trailingIcon(),
  }
  classesByLook.set(key, classes)
  return classes
}
