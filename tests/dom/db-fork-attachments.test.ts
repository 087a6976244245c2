import { Blob as NodeBlob } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { addMessageWithAttachments, attachmentsOfThread, type AttachmentDraft } from '~/db/attachments'
import { addMessage, listMessages } from '~/db/messages'
import { listThreadPassages, replaceDocumentPassages } from '~/db/document-passages'
import { forkThread } from '~/db/fork-thread'
import { createThread, deleteThread } from '~/db/threads'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('fork-attachments-test')

// jsdom's Blob does not survive fake-indexeddb's structured clone; Node's does, as a browser's does.
const Blob = NodeBlob as unknown as typeof globalThis.Blob

function draft(id: string, kind: 'image' | 'document', text: string): AttachmentDraft {
  return { id, kind, name: `${id}.${kind === 'image' ? 'png' : 'md'}`, mime: kind === 'image' ? 'image/png' : 'text/markdown', size: text.length, blob: new Blob([text]) }
}

describe('forking a chat with files', () => {
  it('gives the fork its own copies of the files and passages, which outlive the original chat', async () => {
    const thread = await createThread()
    const question = await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'read these', status: 'complete' }, [draft('img', 'image', 'PNGDATA'), draft('doc', 'document', '# Tokyo')])
    await replaceDocumentPassages({ attachmentId: 'doc', threadId: thread.id, name: 'doc.md' }, [{ text: 'Tokyo is large.' }, { text: 'Osaka is near.' }])
    const reply = await addMessage({ threadId: thread.id, role: 'assistant', content: 'done', status: 'complete' })
    const later = await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'and this', status: 'complete' }, [draft('late', 'image', 'LATER')])

    const fork = await forkThread(reply.id)
    const [copiedQuestion] = await listMessages(fork.id)
    const files = await attachmentsOfThread(fork.id)
    expect(files.map(file => file.name)).toEqual(['img.png', 'doc.md'])
    expect(files.every(file => file.messageId === copiedQuestion!.id && !['img', 'doc'].includes(file.id))).toBe(true)
    expect(copiedQuestion!.attachments!.map(summary => summary.id)).toEqual(files.map(file => file.id))
    expect(await files[0]!.blob.text()).toBe('PNGDATA')
    const passages = await listThreadPassages(fork.id)
    expect(passages.map(passage => [passage.attachmentId, passage.text])).toEqual([[files[1]!.id, 'Tokyo is large.'], [files[1]!.id, 'Osaka is near.']])

    await deleteThread(thread.id)
    expect((await attachmentsOfThread(fork.id)).map(file => file.name)).toEqual(['img.png', 'doc.md'])
    expect(await listThreadPassages(fork.id)).toHaveLength(2)
    expect(question.id).not.toBe(copiedQuestion!.id)
    expect(later.attachments).toHaveLength(1)
  })

  it('forks a chat without files as before', async () => {
    const thread = await createThread()
    const question = await addMessage({ threadId: thread.id, role: 'user', content: 'hi', status: 'complete' })
    const fork = await forkThread(question.id)
    expect((await listMessages(fork.id)).map(row => row.content)).toEqual(['hi'])
    expect(await attachmentsOfThread(fork.id)).toEqual([])
  })
})
