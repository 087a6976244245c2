import type { InlineResource } from '#shared/history/inline-resource'
import { DEMO_MAX_QUOTED_CHARS } from './demo-limits'

// A question about the chat's attachment: "what does the PDF say about refunds", "summarise this document",
// "in the attached file, ...". Linear: alternations of fixed words only.
const DOCUMENT_MENTION = /\b(?:the|this|that|these|those|my|our|your|attached|uploaded)\s+(?:attached\s+|uploaded\s+)?(?:documents?|files?|pdfs?|attachments?|docs?|papers?|reports?)\b|\bpdfs?\b|\battach(?:ed|ment|ments)\b/i
const PASSAGES_SHOWN = 3
const PASSAGE_QUOTE_CHARS = 400

/**
 * The query for `search_documents` when the message asks about an attached document, else undefined. The whole
 * question is the query: the tool's index ignores the words that only point at the document.
 */
export function detectDemoDocumentQuestion(prompt: string): string | undefined {
  if (!DOCUMENT_MENTION.test(prompt)) return undefined
  const query = prompt.replace(/\s+/g, ' ').trim().replace(/(?<![\s?!.])[\s?!.]+$/, '')
  return query ? query.slice(0, DEMO_MAX_QUOTED_CHARS) : undefined
}

// `search_documents`' answer: a heading line, then blocks of "[n] <file>, page <p>" and the passage on the next line.
const PASSAGE_BLOCK = /^\[\d+\] ([^\n]+)\n([^\n]+)$/

/** The answer to a `search_documents` result: the best passages quoted, each with its file and page. */
export function demoDocumentAnswer(content: string): string {
  const quoted = content.split('\n\n')
    .map(block => PASSAGE_BLOCK.exec(block.trim()))
    .filter(match => match !== null)
    .slice(0, PASSAGES_SHOWN)
    .map(([, source, passage]) => {
      const text = passage!.trim()
      const cut = text.length > PASSAGE_QUOTE_CHARS ? `${text.slice(0, PASSAGE_QUOTE_CHARS)}…` : text
      return `> ${escapeQuote(cut)}\n>\n> — *${escapeQuote(source!.trim())}*`
    })
  if (quoted.length === 0) return `The \`search_documents\` tool found nothing to quote: ${escapeQuote(content.trim().slice(0, 300))}`
  return `Here is what the attached documents say (from the \`search_documents\` tool):\n\n${quoted.join('\n\n')}`
}

/** The answer to a question asked with MCP resources attached: each one's text quoted, under its name and URI. */
export function demoResourceAnswer(resources: readonly InlineResource[]): string {
  const quoted = resources.slice(0, PASSAGES_SHOWN).map((resource) => {
    const text = resource.text.trim()
    const cut = text.length > PASSAGE_QUOTE_CHARS ? `${text.slice(0, PASSAGE_QUOTE_CHARS)}…` : text
    const lines = escapeQuote(cut).split('\n').map(line => `> ${line}`).join('\n')
    return `${lines}\n>\n> — *${escapeQuote(resource.label)}*, \`${resource.uri.replace(/`/g, '')}\``
  })
  const more = resources.length > PASSAGES_SHOWN ? `\n\n(and ${resources.length - PASSAGES_SHOWN} more attached)` : ''
  return `Here is what you attached:\n\n${quoted.join('\n\n')}${more}`
}

function escapeQuote(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, '\\$&')
}
