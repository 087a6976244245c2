// Elements whose content is never readable text.
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'MATH', 'CANVAS', 'IFRAME', 'OBJECT', 'EMBED', 'HEAD'])
// Elements that start a new paragraph (a line break for the others).
const BLOCKS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'DD', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER',
  'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'TABLE',
  'TR', 'UL', 'DETAILS', 'SUMMARY',
])
const LINE_BREAKS = new Set(['BR', 'TD', 'TH'])

/**
 * The readable text of an HTML file: paragraphs kept apart, scripts, styles and markup left out. The page is
 * parsed with DOMParser into an inert document: no script runs, nothing is fetched, no handler fires.
 */
export function extractHtmlText(html: string): string {
  const document = new DOMParser().parseFromString(html, 'text/html')
  const parts: string[] = []
  // Iterative walk: a deeply nested page cannot overflow the stack.
  const stack: Array<Node | string> = [document.body ?? document.documentElement]
  const title = document.title.trim()
  if (title) parts.push(title, '\n\n')
  while (stack.length > 0) {
    const item = stack.pop()!
    if (typeof item === 'string') {
      parts.push(item)
      continue
    }
    if (item.nodeType === 3) {
      parts.push(item.textContent ?? '')
      continue
    }
    if (item.nodeType !== 1) continue
    const tag = (item as Element).tagName.toUpperCase()
    if (SKIPPED.has(tag)) continue
    const separator = BLOCKS.has(tag) ? '\n\n' : LINE_BREAKS.has(tag) ? '\n' : ''
    if (separator) stack.push(separator)
    const children = item.childNodes
    for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!)
    if (separator) stack.push(separator)
  }
  return parts.join('').replace(/[^\S\n]+/g, ' ').replace(/ ?\n ?/g, '\n').replace(/\n{3,}/g, '\n\n').trim()
}
