import { renderMarkdown } from './markdown'
import { nextTask } from '../scheduling/yield-to-page'

/**
 * A little markdown with each construct a reply uses (heading, emphasis, inline code, link, list, table, quote,
 * fenced code), rendered once so that the parser and the sanitiser have compiled their code and built their tables
 * before a chat's first messages mount. The first render of a page cost several times the later ones, inside the
 * task that mounted the first turns.
 */
const SAMPLES = [
  'Warm up.',
  '## Warm up\n\nSome **bold**, *emphasis*, `code` and a [link](https://example.com/).',
  '- one\n- two\n\n1. first\n2. second',
  '| a | b |\n|---|---|\n| 1 | 2 |\n\n> a quote',
  '```ts\nconst x = 1\n```',
]

/** Renders the samples (their HTML is thrown away, not cached), each in a task of its own: each compiles code too. */
export async function warmUpMarkdown(): Promise<void> {
  for (const sample of SAMPLES) {
    await nextTask()
    renderMarkdown(sample)
  }
}
