import { Blob as NodeBlob } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { addMessageWithAttachments, attachmentBytesOfThread, attachmentsOfMessages, attachmentsOfThread, getAttachment, type AttachmentDraft } from '~/db/attachments'
import { addMessage, listMessages, toModelMessages } from '~/db/messages'
import { addEditedMessage, deleteBranch } from '~/db/message-branches'
import { replaceDocumentPassages } from '~/db/document-passages'
import { createThread, deleteThread } from '~/db/threads'
import { attachmentContentsOf, IMAGES_NOT_SENT } from '~/utils/chat/attachments/attachment-history'
import { MAX_INLINE_RESOURCE_CHARS } from '~/utils/chat/attachments/attachment-limits'
import { useFreshDatabase } from './helpers/fresh-database'

const database = useFreshDatabase('attachments-test')

// jsdom's Blob has no arrayBuffer() and does not survive a structured clone (fake-indexeddb's): Node's does both, as a
// browser's Blob does.
const Blob = NodeBlob as unknown as typeof globalThis.Blob

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])

function image(id: string, name = `${id}.png`): AttachmentDraft {
  return { id, kind: 'image', name, mime: 'image/png', size: PNG_BYTES.length, width: 4, height: 3, blob: new Blob([PNG_BYTES], { type: 'image/png' }) }
}

function document(id: string, name = `${id}.md`): AttachmentDraft {
  const text = '# Notes\nTokyo is large.'
  return { id, kind: 'document', name, mime: 'text/markdown', size: text.length, blob: new Blob([text], { type: 'text/markdown' }) }
}

describe('attachments in the database', () => {
  it('stores a message with its files in one go, the row listing them without the blobs', async () => {
    const thread = await createThread()
    const message = await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'look', status: 'complete' }, [image('a'), document('b')])
    expect(message.attachments).toEqual([
      { id: 'a', kind: 'image', name: 'a.png', mime: 'image/png', size: PNG_BYTES.length, width: 4, height: 3 },
      { id: 'b', kind: 'document', name: 'b.md', mime: 'text/markdown', size: 23 },
    ])
    const stored = await getAttachment('a')
    expect(stored).toMatchObject({ threadId: thread.id, messageId: message.id, kind: 'image' })
    expect((await attachmentsOfMessages([message.id])).get(message.id)!.map(each => each.id).sort()).toEqual(['a', 'b'])
    expect(await attachmentBytesOfThread(thread.id)).toBe(PNG_BYTES.length + 23)
    expect(await database().attachments.where('[threadId+kind]').equals([thread.id, 'image']).count()).toBe(1)
  })

  it('stores nothing when the message cannot be stored (no such chat)', async () => {
    await expect(addMessageWithAttachments({ threadId: 'missing', role: 'user', content: 'x', status: 'complete' }, [image('a')])).rejects.toThrow(/does not exist/)
    expect(await database().attachments.count()).toBe(0)
  })

  it('deleting a chat deletes its attachments, and only its own', async () => {
    const kept = await createThread()
    const gone = await createThread()
    await addMessageWithAttachments({ threadId: kept.id, role: 'user', content: 'a', status: 'complete' }, [image('keep')])
    await addMessageWithAttachments({ threadId: gone.id, role: 'user', content: 'b', status: 'complete' }, [image('drop'), document('drop-doc')])
    await deleteThread(gone.id)
    expect(await attachmentsOfThread(gone.id)).toEqual([])
    expect((await attachmentsOfThread(kept.id)).map(each => each.id)).toEqual(['keep'])
  })

  it('deleting a message deletes the files of its whole branch', async () => {
    const thread = await createThread()
    const first = await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'one', status: 'complete' }, [image('first')])
    await addMessage({ threadId: thread.id, role: 'assistant', content: 'ok', status: 'complete' })
    await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'two', status: 'complete' }, [image('second')])
    const reply = (await listMessages(thread.id))[1]!
    await deleteBranch(reply.id)
    expect((await attachmentsOfThread(thread.id)).map(each => each.id)).toEqual(['first'])
    expect(first.attachments).toHaveLength(1)
  })

  it('an edited message keeps the files of the original, as copies of its own', async () => {
    const thread = await createThread()
    const original = await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'what is it?', status: 'complete' }, [image('pic', 'photo.png')])
    const edited = await addEditedMessage(original.id, 'what is in it?')
    expect(edited.attachments).toEqual([expect.objectContaining({ name: 'photo.png', kind: 'image' })])
    expect(edited.attachments![0]!.id).not.toBe('pic')
    await deleteBranch(original.id)
    const rows = await attachmentsOfThread(thread.id)
    expect(rows.map(row => [row.name, row.messageId])).toEqual([['photo.png', edited.id]])
  })

  it('deleting a message or a chat removes its documents\' passages, so no search finds them', async () => {
    const thread = await createThread()
    await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'one', status: 'complete' }, [document('kept')])
    const second = await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'two', status: 'complete' }, [document('gone')])
    for (const id of ['kept', 'gone']) await replaceDocumentPassages({ attachmentId: id, threadId: thread.id, name: `${id}.md` }, [{ text: 'Tokyo is large.' }])
    await deleteBranch(second.id)
    expect((await database().documentPassages.toArray()).map(row => row.attachmentId)).toEqual(['kept'])
    await deleteThread(thread.id)
    expect(await database().documentPassages.count()).toBe(0)
  })
})

describe('what the model is sent', () => {
  it('sends images as image_url parts after the text to a model that reads images; documents are named', async () => {
    const thread = await createThread()
    await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'What is this?', status: 'complete' }, [image('pic', 'photo.png'), document('doc', 'notes.md')])
    const records = await listMessages(thread.id)
    const userContent = await attachmentContentsOf(records, { acceptsImages: true })
    const [message] = toModelMessages(records, { userContent })
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is this?\n\n[Documents attached: notes.md (23 bytes)]' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${btoa(String.fromCharCode(...PNG_BYTES))}` } },
      ],
    })
  })

  it('tells a text-only model in words and puts a note on the message: no image is dropped silently', async () => {
    const thread = await createThread()
    await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'Describe it', status: 'complete' }, [image('pic', 'photo.png')])
    let records = await listMessages(thread.id)
    const [message] = toModelMessages(records, { userContent: await attachmentContentsOf(records, { acceptsImages: false }) })
    expect(message).toEqual({ role: 'user', content: 'Describe it\n\n[Images attached but not sent, because this model does not read images: photo.png]' })
    records = await listMessages(thread.id)
    expect(records[0]!.notice).toEqual({ kind: IMAGES_NOT_SENT, message: 'This model does not read images: photo.png was not sent.' })
    // the next send on a model that reads images sends it, and the note goes
    await attachmentContentsOf(records, { acceptsImages: true })
    expect((await listMessages(thread.id))[0]!.notice).toBeUndefined()
  })

  it('sends an MCP resource\'s text inline under its URI, cut at the inline cap with a note', async () => {
    const thread = await createThread()
    const long = 'x'.repeat(MAX_INLINE_RESOURCE_CHARS + 10)
    const resource = (id: string, uri: string, text: string): AttachmentDraft => ({ id, kind: 'document', name: `${id}.txt`, mime: 'text/plain', size: text.length, resourceUri: uri, blob: new Blob([text], { type: 'text/plain' }) })
    await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'Read these', status: 'complete' }, [resource('list', 'note://shopping', 'Milk, eggs.'), resource('big', 'doc://big', long), document('doc', 'notes.md')])
    const records = await listMessages(thread.id)
    expect(records[0]!.attachments?.map(each => each.resourceUri)).toEqual(['note://shopping', 'doc://big', undefined])
    const [message] = toModelMessages(records, { userContent: await attachmentContentsOf(records, { acceptsImages: false }) })
    const content = message!.content as string
    expect(content.startsWith('Read these\n\n[Documents attached: notes.md (23 bytes)]\n\n[Resource note://shopping (list.txt, 11 bytes)]\nMilk, eggs.\n[End of resource note://shopping]')).toBe(true)
    expect(content).toContain(`[Cut at ${MAX_INLINE_RESOURCE_CHARS} of ${long.length} characters; search_documents reads the rest.]`)
    expect(content.length).toBeLessThan(MAX_INLINE_RESOURCE_CHARS + 500)
  })

  it('keeps plain strings for messages without attachments', async () => {
    const thread = await createThread()
    await addMessage({ threadId: thread.id, role: 'user', content: 'plain', status: 'complete' })
    const records = await listMessages(thread.id)
    expect(toModelMessages(records, { userContent: await attachmentContentsOf(records, { acceptsImages: true }) })).toEqual([{ role: 'user', content: 'plain' }])
  })
})
