import {
  countOtherThreadPassages,
  countThreadPassages,
  deleteDocumentPassages,
  listThreadPassages,
  replaceDocumentPassages,
  threadPassagesSignature,
} from '~/db/document-passages'
import { DEFAULT_SEARCH_RESULTS, MAX_PASSAGES_PER_CHAT, MAX_PASSAGES_PER_DOCUMENT, MAX_SEARCH_RESULTS } from './document-limits'
import type { DocumentSearchHit, PassageIndex } from './passage-index'
import { splitIntoPassages } from './split-passages'

export type { DocumentSearchHit } from './passage-index'

/** A document attached to a chat, as the composer hands it over. */
export interface IndexDocumentInput {
  attachmentId: string
  threadId: string
  name: string
  mime: string
  blob: Blob
}

// One index per chat, built from the stored passages on the first search and kept while they stay the same; the
// few chats searched last keep theirs.
const CACHED_CHATS = 4
const cache = new Map<string, { signature: string, index: Promise<PassageIndex> }>()

/**
 * Reads a document's text, splits it into passages and stores them for the chat, so `search_documents` finds them
 * (also after a reload). Attaching the same `attachmentId` again replaces its passages. Throws an Error whose
 * message is for the user ("report.pdf has no text layer (scanned?) …", "… is too large …").
 * @returns how many pages were read (1 for formats without pages) and passages stored
 */
export async function indexDocument(input: IndexDocumentInput): Promise<{ pages: number, passages: number }> {
  const { attachmentId, threadId, name, mime, blob } = input
  // The extractors (and pdf.js behind them) load with the first document, not with the app.
  const { extractDocumentText } = await import('./extract-document')
  const pages = await extractDocumentText({ name, mime, blob })
  const passages = splitIntoPassages(pages)
  if (passages.length > MAX_PASSAGES_PER_DOCUMENT) {
    throw new Error(`${name} is too large: ${passages.length.toLocaleString('en')} passages, at most ${MAX_PASSAGES_PER_DOCUMENT.toLocaleString('en')} per document can be searched. Split it into smaller files.`)
  }
  const others = await countOtherThreadPassages(threadId, attachmentId)
  if (others + passages.length > MAX_PASSAGES_PER_CHAT) {
    throw new Error(`${name} does not fit: this chat's documents would hold ${(others + passages.length).toLocaleString('en')} passages, at most ${MAX_PASSAGES_PER_CHAT.toLocaleString('en')} can be searched in one chat. Start a new chat for more documents.`)
  }
  await replaceDocumentPassages({ attachmentId, threadId, name }, passages)
  cache.delete(threadId)
  return { pages: pages.length, passages: passages.length }
}

/** Forgets the passages of one document, of one chat, or both (when an attachment or a chat is removed). */
export async function forgetDocuments(scope: { threadId?: string, attachmentId?: string }): Promise<void> {
  if (scope.threadId === undefined && scope.attachmentId === undefined) return
  await deleteDocumentPassages(scope)
  if (scope.threadId !== undefined) cache.delete(scope.threadId)
  else cache.clear()
}

/** Whether the chat has a document to search: `search_documents` is offered only then. */
export async function threadHasDocuments(threadId: string): Promise<boolean> {
  return (await countThreadPassages(threadId)) > 0
}

/**
 * The passages of the chat's documents that best match `query`, best first, with file name and page (PDF).
 * @param limit how many, 1 to MAX_SEARCH_RESULTS @default DEFAULT_SEARCH_RESULTS
 */
export async function searchDocuments(threadId: string, query: string, limit = DEFAULT_SEARCH_RESULTS): Promise<DocumentSearchHit[]> {
  const count = Math.min(MAX_SEARCH_RESULTS, Math.max(1, Math.floor(Number.isFinite(limit) ? limit : DEFAULT_SEARCH_RESULTS)))
  const index = await threadIndex(threadId)
  return index.search(query, count)
}

/** Design 004's name for the same search. */
export const retrieveDocuments = searchDocuments

async function threadIndex(threadId: string): Promise<PassageIndex> {
  const signature = await threadPassagesSignature(threadId)
  const cached = cache.get(threadId)
  if (cached?.signature === signature) return cached.index
  const index = Promise.all([import('./passage-index'), listThreadPassages(threadId)])
    .then(([{ buildPassageIndex }, passages]) => buildPassageIndex(passages))
  cache.delete(threadId)
  cache.set(threadId, { signature, index })
  if (cache.size > CACHED_CHATS) cache.delete(cache.keys().next().value!)
  index.catch(() => {
    if (cache.get(threadId)?.index === index) cache.delete(threadId)
  })
  return index
}
