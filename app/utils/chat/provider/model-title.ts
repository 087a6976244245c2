import type { ChatModel } from '#shared/loop/chat-model'
import { listAllMessages } from '~/db/messages'
import { getThread, setGeneratedTitle } from '~/db/threads'
import { getDatabase } from '~/db/database'
import { askForTitle } from './chat-title'
import { DEMO_MODEL_ID } from './provider-settings'

export interface TitleFromModelOptions {
  /** The chat's model, on the provider and key its replies use. */
  createModel: (model: string | undefined) => ChatModel
  /** Told when the request failed (the chat keeps its title). @default console.warn */
  onError?: (error: unknown) => void
}

/**
 * After a chat's first reply: asks the model that wrote it for a short title, once per chat, and puts it on the chat
 * unless the user renamed it meanwhile. Does nothing after later replies, for a chat already asked, or when the first
 * exchange has no text reply. The caller leaves out the demo model, which keeps the title cut from the question.
 */
export async function titleFromModel(threadId: string, options: TitleFromModelOptions): Promise<void> {
  const { createModel, onError = error => console.warn('[plugboard] could not get a title for the chat', error) } = options
  const thread = await getThread(threadId)
  if (!thread || thread.titleByUser || thread.titleRequested || thread.chatModel === DEMO_MODEL_ID) return
  const rows = await listAllMessages(threadId)
  const questions = rows.filter(row => row.role === 'user')
  const reply = rows.find(row => row.role === 'assistant' && row.content.trim() && row.status === 'complete')
  if (questions.length !== 1 || !reply) return
  // Marked first: a reload, a second tab or a failed request never asks again.
  const first = await getDatabase().transaction('rw', getDatabase().threads, async () => {
    const current = await getDatabase().threads.get(threadId)
    if (!current || current.titleRequested || current.titleByUser) return false
    await getDatabase().threads.update(threadId, { titleRequested: Date.now() })
    return true
  })
  if (!first) return
  try {
    const title = await askForTitle(createModel(thread.chatModel), questions[0]!.content, reply.content)
    if (title) await setGeneratedTitle(threadId, title)
  }
  catch (error) {
    onError(error)
  }
}
