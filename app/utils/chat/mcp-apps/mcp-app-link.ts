/** Longest link an app may ask the user to open (characters). */
export const MAX_APP_LINK_CHARS = 2_048

export type McpAppLinkCheck =
  | { ok: true, url: string, origin: string }
  | { ok: false, message: string }

/**
 * Whether an app's `ui/open-link` may be offered to the user: an absolute http or https URL (no `javascript:`,
 * `data:`, `blob:` or `file:`, no credentials in it), whose origin the confirmation names.
 */
export function checkMcpAppLink(value: unknown): McpAppLinkCheck {
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, message: 'The app asked to open a link without a URL.' }
  if (value.length > MAX_APP_LINK_CHARS) return { ok: false, message: `The app asked to open a link longer than ${MAX_APP_LINK_CHARS} characters.` }
  let url: URL
  try {
    url = new URL(value.trim())
  }
  catch {
    return { ok: false, message: 'The app asked to open something that is not a URL.' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: `The app may open http and https links only, not ${url.protocol.slice(0, 20)} links.` }
  if (url.username || url.password) return { ok: false, message: 'The app may not open a link with a user name or password in it.' }
  return { ok: true, url: url.href, origin: url.origin }
}
