import { describe, expect, it } from 'vitest'
import { addMessage, deleteMessagesAfter, listAllMessages, listMessages, toModelMessages } from '~/db/messages'
import { addEditedMessage, branchAt, branchAtPromptOf, branchingChildren, branchPosition, deleteBranch, firstRowIds, listSiblings, switchBranch } from '~/db/message-branches'
import { forkThread } from '~/db/fork-thread'
import { listLatestMessages } from '~/db/message-window'
import { createThread, getThread, touchThread } from '~/db/threads'
import type { MessageRecord } from '~/db/types'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('message-tree-test')

const contents = (rows: MessageRecord[]) => rows.map(row => row.content)

/** user "Q" → assistant "A1"; then "Q" edited to "Q2" → "A2". */
async function editedChat() {
  const thread = await createThread()
  const say = (role: 'user' | 'assistant', content: string, parentId?: string | null) =>
    addMessage({ threadId: thread.id, role, content, status: 'complete', parentId })
  const question = await say('user', 'Q')
  const answer = await say('assistant', 'A1')
  const edited = await addEditedMessage(question.id, ' Q2 ')
  const answer2 = await say('assistant', 'A2')
  return { thread, say, question, answer, edited, answer2 }
}

describe('the message tree', () => {
  it('appends under the active leaf and moves the leaf in the same write', async () => {
    const thread = await createThread()
    const first = await addMessage({ threadId: thread.id, role: 'user', content: 'hi', status: 'complete' })
    const second = await addMessage({ threadId: thread.id, role: 'assistant', content: 'hello', status: 'complete' })
    expect(first.parentId).toBeUndefined()
    expect(second.parentId).toBe(first.id)
    expect((await getThread(thread.id))?.activeLeafId).toBe(second.id)
  })

  it('sends an edit as a new branch: the model and the list see only the edited path, the old one stays', async () => {
    const { thread, question, answer, edited, answer2 } = await editedChat()
    expect(edited).toMatchObject({ content: 'Q2', role: 'user', seq: 3 })
    expect(edited.parentId).toBeUndefined()
    expect(contents(await listMessages(thread.id))).toEqual(['Q2', 'A2'])
    expect(toModelMessages(await listMessages(thread.id))).toEqual([{ role: 'user', content: 'Q2' }, { role: 'assistant', content: 'A2' }])
    expect(contents((await listLatestMessages(thread.id, 10)).rows)).toEqual(['Q2', 'A2'])
    expect(contents(await listAllMessages(thread.id))).toEqual(['Q', 'A1', 'Q2', 'A2'])
    expect((await listSiblings(question.id)).map(row => row.id)).toEqual([question.id, edited.id])
    expect(await firstRowIds(thread.id)).toEqual([question.id, edited.id])
    expect(branchPosition(edited, await firstRowIds(thread.id))).toEqual({ ids: [question.id, edited.id], index: 1 })
    expect(await branchingChildren([edited.id])).toEqual(new Map())
    expect(branchPosition(answer2, undefined)).toBeUndefined()
    expect(answer.onPath).toBe(1)
  })

  it('switches to a branch and back: the leaf becomes the newest row under the sibling chosen', async () => {
    const { thread, question, answer, edited, answer2 } = await editedChat()
    await switchBranch(question.id)
    expect(contents(await listMessages(thread.id))).toEqual(['Q', 'A1'])
    expect((await getThread(thread.id))?.activeLeafId).toBe(answer.id)
    await switchBranch(edited.id)
    expect(contents(await listMessages(thread.id))).toEqual(['Q2', 'A2'])
    expect((await getThread(thread.id))?.activeLeafId).toBe(answer2.id)
  })

  it('regenerates a reply as a sibling under the same user message', async () => {
    const { thread, say, edited, answer2 } = await editedChat()
    const followUp = await say('user', 'more?')
    const step = await say('assistant', 'thinking with a tool')
    expect((await branchAtPromptOf(step.id))?.id).toBe(followUp.id)
    await branchAtPromptOf(answer2.id)
    expect(contents(await listMessages(thread.id))).toEqual(['Q2'])
    const again = await say('assistant', 'A2 again')
    expect(again.parentId).toBe(edited.id)
    expect((await listSiblings(again.id)).map(row => row.id)).toEqual([answer2.id, again.id])
    expect(await branchingChildren([edited.id, again.id])).toEqual(new Map([[edited.id, [answer2.id, again.id]]]))
    expect(contents(await listMessages(thread.id))).toEqual(['Q2', 'A2 again'])
    await switchBranch(answer2.id)
    expect((await getThread(thread.id))?.activeLeafId).toBe(step.id)
  })

  it('refuses an empty edit, an edit of a reply, and a parent from another chat', async () => {
    const { answer, question } = await editedChat()
    await expect(addEditedMessage(question.id, '  ')).rejects.toThrow(/cannot be empty/)
    await expect(addEditedMessage(answer.id, 'x')).rejects.toThrow(/Only your own messages/)
    const other = await createThread()
    await expect(addMessage({ threadId: other.id, role: 'user', content: 'x', status: 'complete', parentId: question.id })).rejects.toThrow(/not in chat/)
  })

  it('deletes a branch on the path: the path moves to the sibling before it, its rows are gone', async () => {
    const { thread, question, answer, edited, answer2 } = await editedChat()
    expect(await deleteBranch(edited.id)).toBe(2)
    expect(contents(await listMessages(thread.id))).toEqual(['Q', 'A1'])
    expect((await getThread(thread.id))?.activeLeafId).toBe(answer.id)
    expect(await listAllMessages(thread.id)).toHaveLength(2)
    expect(await listSiblings(answer2.id)).toEqual([])
    // The last reply gone: the path ends at its parent.
    await deleteBranch(answer.id)
    expect(contents(await listMessages(thread.id))).toEqual(['Q'])
    expect((await getThread(thread.id))?.activeLeafId).toBe(question.id)
  })

  it('deletes a branch off the path without moving the path', async () => {
    const { thread, question } = await editedChat()
    expect(await deleteBranch(question.id)).toBe(2)
    expect(contents(await listMessages(thread.id))).toEqual(['Q2', 'A2'])
  })

  it('keeps Retry on the tree: what follows the user message on the path goes, other replies stay', async () => {
    const { thread, say, edited, answer2 } = await editedChat()
    await branchAt(edited.id)
    await say('assistant', 'A2 failed')
    expect(await deleteMessagesAfter(thread.id, edited.seq)).toBe(1)
    expect(contents(await listMessages(thread.id))).toEqual(['Q2'])
    expect((await listSiblings(answer2.id)).map(row => row.content)).toEqual(['A2'])
    const retried = await say('assistant', 'A2 retried')
    expect(retried.parentId).toBe(edited.id)
  })

  it('forks the path up to a reply (its whole turn) into a new chat, leaving the original as it was', async () => {
    const { thread, say, edited } = await editedChat()
    const call = await say('assistant', '', undefined)
    await say('user', 'later question')
    await touchThread(thread.id, { toolChoices: { calculate: false } })
    const reply = (await listMessages(thread.id)).find(row => row.content === 'A2')!
    const fork = await forkThread(reply.id)
    expect(fork.id).not.toBe(thread.id)
    expect(fork.toolChoices).toEqual({ calculate: false })
    const copied = await listMessages(fork.id)
    expect(contents(copied)).toEqual(['Q2', 'A2', ''])
    expect(copied.map(row => row.seq)).toEqual([1, 2, 3])
    expect(copied[1]!.parentId).toBe(copied[0]!.id)
    expect(copied.some(row => row.id === edited.id || row.id === call.id)).toBe(false)
    expect((await getThread(fork.id))?.activeLeafId).toBe(copied[2]!.id)
    expect(await listAllMessages(thread.id)).toHaveLength(6)
    const forkOfQuestion = await forkThread(edited.id)
    expect(contents(await listMessages(forkOfQuestion.id))).toEqual(['Q2'])
  })

  it('pages the active path of a long chat with a branch near its end', async () => {
    const thread = await createThread()
    let last: MessageRecord | undefined
    for (let index = 0; index < 120; index++) last = await addMessage({ threadId: thread.id, role: index % 2 ? 'assistant' : 'user', content: `m${index}`, status: 'complete' })
    await branchAt(last!.parentId!)
    await addMessage({ threadId: thread.id, role: 'assistant', content: 'regenerated', status: 'complete' })
    const window = await listLatestMessages(thread.id, 50)
    expect(window.hasOlder).toBe(true)
    expect(contents(window.rows).at(-1)).toBe('regenerated')
    expect(contents(window.rows)).not.toContain('m119')
    expect(await listMessages(thread.id)).toHaveLength(120)
  })
})
