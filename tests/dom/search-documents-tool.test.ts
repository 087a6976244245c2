import { describe, expect, it } from 'vitest'
import { createThread } from '~/db/threads'
import { indexDocument } from '~/utils/chat/documents/document-index'
import { loadToolPlugins } from '~/utils/chat/registry/load-tool-plugins'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import searchDocuments from '~~/plugins/search-documents'
import { useFreshDatabase } from './helpers/fresh-database'

const context = (threadId: string) => ({ signal: new AbortController().signal, threadId, callId: 'call_1', status: () => {}, settings: {} })
const attach = (threadId: string, text: string, name = 'handbook.md') =>
  indexDocument({ attachmentId: `att_${name}`, threadId, name, mime: 'text/markdown', blob: new Blob([text]) })

useFreshDatabase('search-documents-tool-test')

describe('the search_documents tool', () => {
  it('is offered to the model only in a chat that has documents', async () => {
    const registry = createToolRegistry()
    await loadToolPlugins({ '../../plugins/search-documents.ts': async () => ({ default: searchDocuments }) }, registry)
    const withDocument = await createThread()
    const without = await createThread()
    await attach(withDocument.id, 'The office opens at nine.')
    const offered = async (threadId: string) => (await registry.getToolSet({ threadId })).definitions.map(tool => tool.function.name)
    expect(await offered(withDocument.id)).toContain('search_documents')
    expect(await offered(without.id)).not.toContain('search_documents')
    expect(searchDocuments.definition.unavailableReason).toBe('Needs a document attached to this chat')
  })

  it('returns the matching passages with their file name for the model to cite', async () => {
    const thread = await createThread()
    await attach(thread.id, '# Hours\n\nThe office opens at nine.\n\n# Parking\n\nVisitors park in lot B.')
    await attach(thread.id, 'Parking permits cost ten euros.', 'permits.txt')
    const result = await searchDocuments.handler({ query: 'where do visitors park' }, context(thread.id)) as string
    const [heading, ...passages] = result.split('\n\n')
    expect(heading).toBe('Found 2 passages: handbook.md; permits.txt')
    expect(passages[0]).toMatch(/^\[1\] handbook\.md\n.*Visitors park in lot B\./)
    expect(passages[1]).toBe('[2] permits.txt\nParking permits cost ten euros.')
  })

  it('says so when nothing matches, and refuses an empty query', async () => {
    const thread = await createThread()
    await attach(thread.id, 'The office opens at nine.')
    expect(await searchDocuments.handler({ query: 'zeppelin' }, context(thread.id))).toBe('No passage of the attached documents matches "zeppelin".')
    await expect(async () => searchDocuments.handler({ query: '  ' }, context(thread.id))).rejects.toThrow('The query is empty.')
  })
})
