import { Blob as NodeBlob } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { addMessageWithAttachments, attachmentsOfThread } from '~/db/attachments'
import { addMessage, listMessages } from '~/db/messages'
import { createThread } from '~/db/threads'
import { HistoryImportError } from '~/utils/chat/history-transfer/history-import-error'
import { exportChats, importHistoryFile } from '~/utils/chat/history-transfer/history-transfer'
import { indexImportedDocuments } from '~/composables/index-message-documents'
import { searchDocuments } from '~/utils/chat/documents/document-index'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('history-attachments-test')

// jsdom's Blob has no arrayBuffer() and does not survive fake-indexeddb's structured clone; Node's, like a browser's, does.
const Blob = NodeBlob as unknown as typeof globalThis.Blob
globalThis.Blob = Blob

const fileOf = (text: string) => ({ size: text.length, text: async () => text })
const PNG = new Uint8Array([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 255, 7])
const NOTES = '# Trip\nTokyo in May.'

async function chatWithFiles() {
  const thread = await createThread('Trip')
  await addMessageWithAttachments({ threadId: thread.id, role: 'user', content: 'Plan it', status: 'complete' }, [
    { id: 'img', kind: 'image', name: 'map.png', mime: 'image/png', size: PNG.length, width: 3, height: 2, blob: new Blob([PNG], { type: 'image/png' }) },
    { id: 'doc', kind: 'document', name: 'notes.md', mime: 'text/markdown', size: NOTES.length, blob: new Blob([NOTES], { type: 'text/markdown' }) },
  ])
  await addMessage({ threadId: thread.id, role: 'assistant', content: 'Done.', status: 'complete' })
  return thread
}

async function bytesOf(blob: Blob) {
  return [...new Uint8Array(await blob.arrayBuffer())]
}

describe('attachments in history files', () => {
  it('travel whole in the JSON export and come back on import with fresh ids, linked to their message', async () => {
    const original = await chatWithFiles()
    const file = (await exportChats('json', [original.id]))!
    const parsed = JSON.parse(file.text)
    expect(parsed.chats[0].attachments.map((each: { name: string, mime: string }) => [each.name, each.mime])).toEqual([['map.png', 'image/png'], ['notes.md', 'text/markdown']])

    const { threadIds: [imported] } = await importHistoryFile(fileOf(file.text))
    const rows = await attachmentsOfThread(imported!)
    expect(rows.map(row => [row.name, row.kind, row.size, row.width])).toEqual([['map.png', 'image', PNG.length, 3], ['notes.md', 'document', NOTES.length, undefined]])
    expect(rows.every(row => row.id !== 'img' && row.id !== 'doc')).toBe(true)
    expect(await bytesOf(rows[0]!.blob)).toEqual([...PNG])
    expect(new TextDecoder().decode(new Uint8Array(await rows[1]!.blob.arrayBuffer()))).toBe(NOTES)
    const [question] = await listMessages(imported!)
    expect(rows.every(row => row.messageId === question!.id)).toBe(true)
    expect(question!.attachments!.map(summary => summary.id)).toEqual(rows.map(row => row.id))
    // the originals are untouched
    expect((await attachmentsOfThread(original.id)).map(row => row.id)).toEqual(['img', 'doc'])
  })

  it('makes an imported chat\'s documents searchable again, their chips saying so', async () => {
    const file = (await exportChats('json', [(await chatWithFiles()).id]))!
    const { threadIds: [imported] } = await importHistoryFile(fileOf(file.text))
    expect(await searchDocuments(imported!, 'Tokyo')).toEqual([])
    await indexImportedDocuments([imported!])
    const hits = await searchDocuments(imported!, 'Tokyo')
    expect(hits.map(hit => hit.name)).toEqual(['notes.md'])
    const [question] = await listMessages(imported!)
    expect(question!.attachments!.find(summary => summary.kind === 'document')!.index).toEqual({ status: 'ready', pages: 1, passages: 1 })
  })

  it('names the files in the Markdown export', async () => {
    const thread = await chatWithFiles()
    const markdown = (await exportChats('md', [thread.id]))!.text
    expect(markdown).toContain('- Image: map.png (11 bytes)')
    expect(markdown).toContain('- File: notes.md (20 bytes)')
  })

  it('refuses a file whose attachment does not match its message, its size or its type, and stores nothing', async () => {
    const thread = await chatWithFiles()
    const text = (await exportChats('json', [thread.id]))!.text
    const broken = [
      (file: any) => { file.chats[0].attachments[0].size = 99 },
      (file: any) => { file.chats[0].attachments[0].messageId = 'elsewhere' },
      (file: any) => { file.chats[0].attachments[0].mime = 'application/x-msdownload' },
      (file: any) => { file.chats[0].attachments[1].data = '<script>' },
    ]
    for (const breakIt of broken) {
      const file = JSON.parse(text)
      breakIt(file)
      await expect(importHistoryFile(fileOf(JSON.stringify(file)))).rejects.toBeInstanceOf(HistoryImportError)
    }
    expect((await listMessages(thread.id)).length).toBe(2)
  })
})
