import theme from '#build/ui/textarea'
import { tv } from '#ui/utils/tv'

/** One fixed look of Nuxt UI's textarea (the props `UTextarea` takes for it), without icons. */
export interface TextareaLook {
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl'
  color?: 'primary' | 'secondary' | 'success' | 'info' | 'warning' | 'error' | 'neutral'
  variant?: 'outline' | 'soft' | 'subtle' | 'ghost' | 'none'
  autoresize?: boolean
  /** Extra classes for the `<textarea>`, merged as `UTextarea`'s `ui.base` is. */
  base?: string
}

/** The classes of a textarea's wrapper (`root`) and of the `<textarea>` itself (`base`). */
export interface TextareaClasses {
  root: string
  base: string
}

const classesByLook = new Map<string, TextareaClasses>()

/** The composer's message box. */
export const COMPOSER_TEXTAREA = { variant: 'none', autoresize: true, base: 'resize-none px-2 py-1.5 text-base' } as const satisfies TextareaLook

/**
 * The classes `UTextarea` gives a textarea of this look (its theme, with the app config's `ui.textarea` overrides),
 * worked out once per look: the composer is on the first screen, and `UTextarea` merges its classes with
 * tailwind-merge in the task that renders it. A plain `<textarea>` with these classes looks the same.
 */
export function textareaClasses(look: TextareaLook, overrides?: Record<string, unknown>): TextareaClasses {
  const key = JSON.stringify(look)
  const known = classesByLook.get(key)
  if (known) return known
  const { base, ...variants } = look
  const slots = tv({ extend: tv(theme), ...overrides })({ color: 'primary', ...variants, loading: false, highlight: false, leading: false, trailing: false })
  const classes: TextareaClasses = { root: slots.root(), base: slots.base({ class: base }) }
  classesByLook.set(key, classes)
  return classes
}

/** The app config's `ui.textarea`. */
export function textareaOverridesOf(appConfig: unknown): Record<string, unknown> | undefined {
  return (appConfig as { ui?: { textarea?: Record<string, unknown> } } | undefined)?.ui?.textarea
}

/** Rows the text of `element` needs, between `minRows` and `maxRows`, as `UTextarea`'s `autoresize` works them out. */
export function fitTextareaRows(element: HTMLTextAreaElement, minRows: number, maxRows: number): void {
  element.rows = minRows
  const overflow = element.style.overflow
  element.style.overflow = 'hidden'
  const styles = window.getComputedStyle(element)
  const padding = Number.parseInt(styles.paddingTop) + Number.parseInt(styles.paddingBottom)
  const lineHeight = Number.parseInt(styles.lineHeight)
  const rows = (element.scrollHeight - padding) / lineHeight
  if (Number.isFinite(rows) && rows > minRows) element.rows = Math.min(Math.ceil(rows), maxRows)
  element.style.overflow = overflow
}
