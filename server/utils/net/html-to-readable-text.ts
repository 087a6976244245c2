import { convert } from 'html-to-text'
import type { HtmlToTextOptions } from 'html-to-text'

/** Parts of a page that are not its text: metadata (the title is read apart), code, styling, menus, forms, media. */
const SKIPPED = ['head', 'title', 'script', 'style', 'noscript', 'template', 'nav', 'footer', 'aside', 'form', 'button', 'select',
  'svg', 'canvas', 'iframe', 'object', 'embed', 'img', 'picture', 'video', 'audio', '[hidden]', '[aria-hidden="true"]']

const OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  // The page's <main> when it has one (the rest is chrome around it), else the whole page.
  baseElements: { selectors: ['main'], returnDomByDefault: true },
  selectors: [
    ...SKIPPED.map(selector => ({ selector, format: 'skip' })),
    // Link targets double the text for little use to a reader; the model can ask for a page it saw named.
    { selector: 'a', options: { ignoreHref: true } },
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map(selector => ({ selector, options: { uppercase: false } })),
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
}

/** A page's title and its readable text (html-to-text, without scripts, styles, menus, forms or media). */
export function htmlToReadableText(html: string): { title: string, text: string } {
  const titleHtml = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? ''
  const title = titleHtml ? convert(titleHtml, { wordwrap: false }).replace(/\s+/g, ' ').trim() : ''
  const text = convert(html, OPTIONS)
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return { title, text }
}
