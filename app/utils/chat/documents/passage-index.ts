import type MiniSearch from 'minisearch'
import type { DocumentPassageRecord } from '~/db/types'

/** One passage found, with what the model needs to cite it. */
export interface DocumentSearchHit {
  name: string
  page?: number
  text: string
  score: number
  attachmentId: string
}

/** A chat's passages in a full-text index (MiniSearch: BM25 ranking, prefix and typo-tolerant matches). */
export interface PassageIndex {
  search(query: string, limit: number): DocumentSearchHit[]
}

// Words too common to tell passages apart; left out of the index and of queries so "what does the PDF say about
// refunds" ranks by "refunds".
const STOP_WORDS = new Set([
  'a', 'about', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'can', 'did', 'do', 'does', 'for', 'from', 'had',
  'has', 'have', 'how', 'i', 'in', 'is', 'it', 'its', 'me', 'my', 'of', 'on', 'or', 'our', 'say', 'says', 'so', 'that',
  'the', 'their', 'them', 'there', 'these', 'they', 'this', 'those', 'to', 'was', 'we', 'were', 'what', 'when',
  'where', 'which', 'who', 'why', 'will', 'with', 'you', 'your', 'tell', 'please', 's', 'give', 'find', 'look', 'up',
])
// Words a question about an attachment uses for the attachment itself, or for reading all of it: they say which
// passages to search, not what to find in them.
const DOCUMENT_WORDS = new Set([
  'document', 'documents', 'doc', 'docs', 'file', 'files', 'pdf', 'pdfs', 'attachment', 'attachments', 'attached',
  'summarise', 'summarize', 'summary', 'overview', 'read', 'show', 'content', 'contents',
])

function processTerm(term: string): string | null {
  const word = term.toLowerCase()
  return STOP_WORDS.has(word) ? null : word
}

function processQueryTerm(term: string): string | null {
  const word = processTerm(term)
  return word && !DOCUMENT_WORDS.has(word) ? word : null
}

/** Builds the index of a chat's passages; MiniSearch is loaded on the first search, not with the app. */
export async function buildPassageIndex(passages: readonly DocumentPassageRecord[]): Promise<PassageIndex> {
  const { default: MiniSearchClass } = await import('minisearch')
  const index: MiniSearch<DocumentPassageRecord> = new MiniSearchClass<DocumentPassageRecord>({
    fields: ['text', 'name'],
    storeFields: ['name', 'page', 'text', 'attachmentId'],
    processTerm,
  })
  index.addAll(passages as DocumentPassageRecord[])
  return {
    search(query, limit) {
      // "summarise the document" names no subject: the start of each document answers it best.
      if (onlyDocumentWords(query)) return openingPassages(passages, limit)
      const results = index.search(query, {
        boost: { name: 2 },
        prefix: term => term.length > 2,
        fuzzy: term => (term.length > 4 ? 0.2 : false),
        combineWith: 'OR',
        processTerm: processQueryTerm,
      })
      return results.slice(0, limit).map(result => ({
        name: result.name as string,
        ...(typeof result.page === 'number' && { page: result.page }),
        text: result.text as string,
        score: Math.round(result.score * 1000) / 1000,
        attachmentId: result.attachmentId as string,
      }))
    },
  }
}

function onlyDocumentWords(query: string): boolean {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(word => word && !STOP_WORDS.has(word))
  return words.length > 0 && words.every(word => DOCUMENT_WORDS.has(word))
}

/** The first passage of each document, for a query that names no subject. */
function openingPassages(passages: readonly DocumentPassageRecord[], limit: number): DocumentSearchHit[] {
  return passages.filter(passage => passage.index === 0).slice(0, limit).map(passage => ({
    name: passage.name,
    ...(passage.page !== undefined && { page: passage.page }),
    text: passage.text,
    score: 0,
    attachmentId: passage.attachmentId,
  }))
}
