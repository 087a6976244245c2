import { parseJson } from '#shared/security/parse-json'
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

interface PassageResult { source?: unknown, passage?: unknown }

/** The answer to a `search_documents` result: the best passages quoted, each with its file and page. */
export function demoDocumentAnswer(content: string): string {
  let passages: PassageResult[] = []
  try {
    const value = parseJson(content)
    if (Array.isArray(value)) passages = value.filter((item): item is PassageResult => Boolean(item) && typeof item === 'object')
  }
  catch {}
  const quoted = passages
    .filter(item => typeof item.passage === 'string' && typeof item.source === 'string')
    .slice(0, PASSAGES_SHOWN)
    .map((item) => {
      const text = (item.passage as string).replace(/\s+/g, ' ').trim()
      const cut = text.length > PASSAGE_QUOTE_CHARS ? `${text.slice(0, PASSAGE_QUOTE_CHARS)}…` : text
      return `> ${escapeQuote(cut)}\n>\n> — *${escapeQuote(item.source as string)}*`
    })
  if (quoted.length === 0) return `The \`search_documents\` tool found nothing to quote: ${content.trim().slice(0, 300)}`
  return `Here is what the attached documents say (from the \`search_documents\` tool):\n\n${quoted.join('\n\n')}`
}

function escapeQuote(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, '\\$&')
}
