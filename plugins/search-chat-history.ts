import { searchMessages } from '~/db/messages'
import { countThreadsWithMessages } from '~/db/threads'
import { defineTool } from '~/utils/chat/plugin-api'

const MAX_RESULTS = 8
const EXCERPT_LENGTH = 300

function excerpt(content: string, query: string): string {
  const text = content.replace(/\s+/g, ' ').trim()
  if (text.length <= EXCERPT_LENGTH) return text
  // centre the excerpt on the first match so the model sees why it matched
  const at = Math.max(0, text.toLowerCase().indexOf(query.toLowerCase()) - EXCERPT_LENGTH / 3)
  const start = Math.min(at, text.length - EXCERPT_LENGTH)
  return `${start > 0 ? '…' : ''}${text.slice(start, start + EXCERPT_LENGTH)}${start + EXCERPT_LENGTH < text.length ? '…' : ''}`
}

export default defineTool({
  name: 'search_chat_history',
  description: 'Search the user\'s earlier conversations in this app (stored on this device) for messages containing '
    + 'the query. Use it when the user refers to something discussed before.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words to look for, e.g. "tax return" or "Lisbon hotel".' },
    },
    required: ['query'],
    additionalProperties: false,
  } as const,
  icon: 'i-lucide-history',
  category: 'Memory',
  ui: { label: 'Search chat history', descriptionHint: 'Looks through your earlier chats on this device.' },
  // only worth offering when there is something to search
  available: async ({ threadId }) => (await countThreadsWithMessages(threadId)) > 0,
  unavailableReason: 'Needs earlier chats',
  catalog: { commandName: 'history', version: '1.0.0' },
  async handler({ query }, context) {
    const text = query.trim()
    if (!text) throw new Error('The query is empty.')
    const matches = await searchMessages(text, { excludeThreadId: context.threadId, limit: MAX_RESULTS })
    if (matches.length === 0) return `No earlier message matches "${text}".`
    return matches.map(match => ({
      thread: match.threadTitle,
      // the ids let the tool's card open the message
      threadId: match.threadId,
      messageId: match.messageId,
      date: new Date(match.createdAt).toISOString().slice(0, 10),
      excerpt: excerpt(match.content, text),
    }))
  },
})
