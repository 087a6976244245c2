import { truncateToolOutput } from '#shared/tools/tool-output'
import type { ToolExecutionContext } from '#shared/tools/tool-types'
import type { ServerToolDefinition } from '#shared/types/server-tools'
import { fetchPublicUrl } from '../../net/fetch-public-url'
import type { FetchPublicUrlOptions } from '../../net/fetch-public-url'
import { htmlToReadableText } from '../../net/html-to-readable-text'

/** Most characters of page text given to the model: a long article, without filling its context. */
export const MAX_PAGE_TEXT_CHARS = 20_000

/** The tool as the model and the popover see it. Server only: it reaches other hosts from the server. */
export const fetchWebPageDefinition = {
  type: 'function',
  function: {
    name: 'fetch_web_page',
    description: 'Fetch a public web page (http or https) and return its readable text: the title and the main text, '
      + 'without scripts, menus or markup. Works for HTML, plain text and JSON. Use it to read a page the user names or to check a source.',
    parameters: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'The absolute http(s) URL of the page, e.g. "https://example.com/article".', maxLength: 2048 },
      },
      required: ['url'],
      additionalProperties: false,
    },
  },
  icon: 'i-lucide-globe',
  category: 'Web',
  ui: { label: 'Fetch web page', descriptionHint: 'Reads public web pages from the server. Sends the URL to that site.' },
  // it sends the model's URL to another site: off until the user switches it on
  defaultEnabled: false,
  timeoutMs: 20_000,
  runtime: 'server',
  actsOutsideApp: true,
  catalog: { commandName: 'fetch', version: '1.0.0' },
} satisfies ServerToolDefinition

/** Fetch limits of the tool; tests pass a resolver or a short time cap. */
export type FetchWebPageOptions = Pick<FetchPublicUrlOptions, 'allowedHosts' | 'resolve' | 'send' | 'maxBytes' | 'timeoutMs'>

/**
 * The handler of `fetch_web_page`: the page's readable text, headed by its title and final URL, cut to
 * MAX_PAGE_TEXT_CHARS with a note. Refusals (non-public address, wrong type, too many redirects) are thrown with
 * messages the model can act on.
 */
export function createFetchWebPageHandler(options: FetchWebPageOptions = {}) {
  return async ({ url }: { url: string }, context: ToolExecutionContext): Promise<string> => {
    context.status(`Fetching ${url}`)
    const page = await fetchPublicUrl(url, { timeoutMs: 15_000, ...options, signal: context.signal })
    const readable = page.mediaType.includes('html') ? htmlToReadableText(page.text) : { title: '', text: page.text.trim() }
    const { content } = truncateToolOutput(readable.text, MAX_PAGE_TEXT_CHARS)
    const head = [readable.title && `Title: ${readable.title}`, `URL: ${page.url}`, page.truncated && 'Note: the page was larger than the download cap; this is its beginning.']
    return `${head.filter(Boolean).join('\n')}\n\n${content || '(The page has no readable text.)'}`
  }
}
