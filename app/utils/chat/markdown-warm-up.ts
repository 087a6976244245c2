import { renderMarkdown } from './markdown'

/**
 * A little markdown with each construct a reply uses (heading, emphasis, inline code, link, list, table, quote,
 * fenced code), rendered once so that the parser and the sanitiser have compiled their code and built their tables
 * before a chat's first messages mount. The first render of a page cost several times the later ones, inside the
 * task that mounted the first turns.
 */
const SAMPLE = [
  '## Warm up',
  'Some **bold**, *emphasis*, `code` and a [link](https://example.com/).',
  '- one\n- two\n\n1. first\n2. second',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '> a quote',
  '```ts\nconst x = 1\n```',
].join('\n\n')

/** Renders the sample once (its HTML is thrown away, not cached). */
export function warmUpMarkdown(): void {
  renderMarkdown(SAMPLE)
}
