import { describe, expect, it, vi } from 'vitest'
import { createThread, deleteThread } from '~/db/threads'
import { countThreadPassages } from '~/db/document-passages'
import { forgetDocuments, indexDocument, searchDocuments, threadHasDocuments } from '~/utils/chat/documents/document-index'
import { POLICY_PDF_PAGES, tinyPdf } from '~~/tests/fixtures/documents/tiny-pdf'
import { useFreshDatabase } from './helpers/fresh-database'
import { spawnInProcessPdfTextWorker } from './helpers/in-process-pdf-worker'

vi.mock('~/utils/chat/documents/spawn-pdf-text-worker', () => ({ spawnPdfTextWorker: spawnInProcessPdfTextWorker }))
vi.mock('~/utils/chat/documents/document-limits', async (importOriginal) => {
  const limits = await importOriginal<typeof import('~/utils/chat/documents/document-limits')>()
  // small caps, so a test reaches them with a few kilobytes
  return { ...limits, MAX_PASSAGES_PER_DOCUMENT: 40, MAX_PASSAGES_PER_CHAT: 60 }
})

const database = useFreshDatabase('document-index-test')

const pdf = (threadId: string, attachmentId = 'att_pdf') =>
  ({ attachmentId, threadId, name: 'policy.pdf', mime: 'application/pdf', blob: new Blob([tinyPdf(POLICY_PDF_PAGES)]) })
const markdown = (threadId: string, attachmentId: string, text: string, name = 'notes.md') =>
  ({ attachmentId, threadId, name, mime: 'text/markdown', blob: new Blob([text]) })
const paragraphs = (count: number) => Array.from({ length: count }, (_, index) => `Paragraph ${index} ${'word '.repeat(180)}`).join('\n\n')

describe('the documents of a chat', () => {
  it('finds the passage that answers, with its file name and page', async () => {
    const thread = await createThread()
    expect(await indexDocument(pdf(thread.id))).toEqual({ pages: 2, passages: 2 })
    const [hit] = await searchDocuments(thread.id, 'When is a refund paid?')
    expect(hit).toMatchObject({ name: 'policy.pdf', page: 2, attachmentId: 'att_pdf' })
    expect(hit!.text).toContain('A refund is paid within 30 days of a cancelled trip.')
    expect((await searchDocuments(thread.id, 'economy flight'))[0]).toMatchObject({ page: 1 })
  })

  it('searches only the chat\'s own documents, across several files', async () => {
    const first = await createThread()
    const second = await createThread()
    await indexDocument(pdf(first.id))
    await indexDocument(markdown(first.id, 'att_md', '# Packing\n\nBring a passport and an umbrella for Lisbon.'))
    await indexDocument(markdown(second.id, 'att_other', 'Umbrella stands are sold out.', 'other.md'))
    const hits = await searchDocuments(first.id, 'umbrella')
    expect(hits.map(hit => hit.name)).toEqual(['notes.md'])
    expect(hits[0]).not.toHaveProperty('page')
    expect(await searchDocuments(first.id, 'zeppelin')).toEqual([])
  })

  it('answers "summarise the document" with the start of each document', async () => {
    const thread = await createThread()
    await indexDocument(pdf(thread.id))
    const hits = await searchDocuments(thread.id, 'summarise the document')
    expect(hits).toHaveLength(1)
    expect(hits[0]).toMatchObject({ name: 'policy.pdf', page: 1 })
  })

  it('keeps the index after a reload: a new index is built from the stored passages', async () => {
    const thread = await createThread()
    await indexDocument(pdf(thread.id))
    expect(await countThreadPassages(thread.id)).toBe(2)
    // a fresh module graph (no cached index) over the same stored rows
    vi.resetModules()
    ;(await import('~/db/database')).setDatabase(database())
    const reloaded = await import('~/utils/chat/documents/document-index')
    expect((await reloaded.searchDocuments(thread.id, 'receipts'))[0]).toMatchObject({ name: 'policy.pdf', page: 2 })
  })

  it('sees a document added or forgotten after the first search', async () => {
    const thread = await createThread()
    await indexDocument(markdown(thread.id, 'att_a', 'Apples are red.'))
    expect(await searchDocuments(thread.id, 'bananas')).toEqual([])
    await indexDocument(markdown(thread.id, 'att_b', 'Bananas are yellow.', 'fruit.md'))
    expect((await searchDocuments(thread.id, 'bananas'))[0]?.name).toBe('fruit.md')
    await forgetDocuments({ attachmentId: 'att_b' })
    expect(await searchDocuments(thread.id, 'bananas')).toEqual([])
    expect(await threadHasDocuments(thread.id)).toBe(true)
    await forgetDocuments({ threadId: thread.id })
    expect(await threadHasDocuments(thread.id)).toBe(false)
  })

  it('replaces a document indexed again under the same attachment id', async () => {
    const thread = await createThread()
    await indexDocument(markdown(thread.id, 'att_a', 'Old text about cats.'))
    await indexDocument(markdown(thread.id, 'att_a', 'New text about dogs.'))
    expect(await countThreadPassages(thread.id)).toBe(1)
    expect(await searchDocuments(thread.id, 'cats')).toEqual([])
  })

  it('refuses a document with too many passages, and one that would overfill the chat, keeping what was there', async () => {
    const thread = await createThread()
    await expect(indexDocument(markdown(thread.id, 'att_big', paragraphs(45), 'big.md')))
      .rejects.toThrow(/^big\.md is too large: 45 passages, at most 40 per document can be searched\./)
    await indexDocument(markdown(thread.id, 'att_1', paragraphs(35), 'one.md'))
    await expect(indexDocument(markdown(thread.id, 'att_2', paragraphs(35), 'two.md')))
      .rejects.toThrow(/^two\.md does not fit: this chat's documents would hold 70 passages, at most 60/)
    expect(await countThreadPassages(thread.id)).toBe(35)
  })

  it('removes a chat\'s passages with the chat', async () => {
    const thread = await createThread()
    await indexDocument(pdf(thread.id))
    await deleteThread(thread.id)
    expect(await database().documentPassages.count()).toBe(0)
  })

  it('clamps the number of results to 1..10', async () => {
    const thread = await createThread()
    await indexDocument(markdown(thread.id, 'att_many', paragraphs(20).replace(/word/g, 'harbour')))
    expect(await searchDocuments(thread.id, 'harbour', 50)).toHaveLength(10)
    expect(await searchDocuments(thread.id, 'harbour', 0)).toHaveLength(1)
  })
})
