import { searchDocuments, threadHasDocuments } from '~/utils/chat/documents/document-index'
import { DEFAULT_SEARCH_RESULTS, MAX_SEARCH_RESULTS } from '~/utils/chat/documents/document-limits'
import { defineTool } from '~/utils/chat/plugin-api'

// Design 004's `retrieve_documents`: the passages of the documents attached to this chat that match a query.
export default defineTool({
  name: 'search_documents',
  description: 'Search the documents the user attached to this chat (PDF, text, Markdown, code, CSV, JSON, HTML) '
    + 'and return the passages that best match the query, each with its file name and page. Use it whenever the '
    + 'user asks about an attached file, and cite the file and page in the answer.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What to look for, in the documents\' own words where possible, e.g. "refund period".' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, description: `How many passages to return (default ${DEFAULT_SEARCH_RESULTS}).` },
    },
    required: ['query'],
    additionalProperties: false,
  } as const,
  icon: 'i-lucide-file-search',
  category: 'Memory',
  ui: { label: 'Search documents', descriptionHint: 'Looks through the files attached to this chat.' },
  // offered only in a chat that has a document to search
  available: ({ threadId }) => threadHasDocuments(threadId),
  unavailableReason: 'Needs a document attached to this chat',
  catalog: { commandName: 'documents', version: '1.0.0' },
  async handler({ query, limit }, context) {
    const text = query.trim()
    if (!text) throw new Error('The query is empty.')
    const hits = await searchDocuments(context.threadId, text, limit ?? DEFAULT_SEARCH_RESULTS)
    if (hits.length === 0) return `No passage of the attached documents matches "${text}".`
    // Plain text, read alike by the model and on the card: the first line names the sources, then each passage
    // under a numbered source line the model can cite.
    const sources = hits.map(hit => (hit.page === undefined ? hit.name : `${hit.name}, page ${hit.page}`))
    const heading = `Found ${hits.length} passage${hits.length === 1 ? '' : 's'}: ${[...new Set(sources)].join('; ')}`
    return [heading, ...hits.map((hit, index) => `[${index + 1}] ${sources[index]}\n${hit.text}`)].join('\n\n')
  },
})
