import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { StorageError } from '#shared/errors/storage-error'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { addMessage, getMessage } from '~/db/messages'
import { createStreamingWriter } from '~/db/streaming-writer'
import { createThread } from '~/db/threads'

let db: PlugboardDatabase
let messageId: string

beforeEach(async () => {
  db = new PlugboardDatabase('writer-test', { indexedDB: new IDBFactory(), IDBKeyRange })
  setDatabase(db)
  const thread = await createThread()
  messageId = (await addMessage({ threadId: thread.id, role: 'assistant', status: 'streaming' })).id
  // Only timers and the clock: fake-indexeddb schedules its own work with setImmediate.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
})

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  db.close()
  setDatabase(undefined)
})

describe('createStreamingWriter', () => {
  it('writes 100 deltas within one interval as one write plus one trailing write', async () => {
    const update = vi.spyOn(db.messages, 'update')
    const writer = createStreamingWriter(messageId, { intervalMs: 250 })
    for (let index = 0; index < 100; index++) writer.appendText(`${index} `)
    await vi.advanceTimersByTimeAsync(0)
    expect(update).toHaveBeenCalledTimes(1)
    expect(update.mock.calls[0]![1]).toMatchObject({ content: '0 ' })
    await update.mock.results[0]!.value
    await vi.advanceTimersByTimeAsync(249)
    expect(update).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(update).toHaveBeenCalledTimes(2)
    await writer.flush()
    const expected = Array.from({ length: 100 }, (_, index) => `${index} `).join('')
    expect((await getMessage(messageId))?.content).toBe(expected)
    await vi.advanceTimersByTimeAsync(1000)
    expect(update).toHaveBeenCalledTimes(2)
  })

  it('writes at most once per interval while a reply streams steadily', async () => {
    const update = vi.spyOn(db.messages, 'update')
    const writer = createStreamingWriter(messageId, { intervalMs: 250 })
    for (let tick = 0; tick < 100; tick++) {
      writer.appendText('x')
      await vi.advanceTimersByTimeAsync(10)
    }
    await writer.flush()
    // 1000 ms of deltas: the leading write, one per 250 ms after it, and at most one trailing flush.
    expect(update.mock.calls.length).toBeGreaterThanOrEqual(4)
    expect(update.mock.calls.length).toBeLessThanOrEqual(5)
    expect((await getMessage(messageId))?.content).toBe('x'.repeat(100))
  })

  it('with an interval of Infinity writes only when flushed, so the caller can store a checkpoint with each write', async () => {
    const update = vi.spyOn(db.messages, 'update')
    const writer = createStreamingWriter(messageId, { intervalMs: Number.POSITIVE_INFINITY })
    writer.appendText('Hello')
    writer.setPatch({ model: 'demo' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(update).not.toHaveBeenCalled()
    await writer.flush()
    expect(update).toHaveBeenCalledTimes(1)
    expect(await getMessage(messageId)).toMatchObject({ content: 'Hello', model: 'demo' })
  })

  it('stores reasoning and patches with the next write', async () => {
    const writer = createStreamingWriter(messageId, { intervalMs: 250 })
    writer.appendReasoning('thinking')
    writer.appendText('Hello')
    writer.setPatch({ model: 'demo' })
    await vi.advanceTimersByTimeAsync(250)
    await writer.flush()
    expect(await getMessage(messageId)).toMatchObject({ content: 'Hello', reasoning: 'thinking', model: 'demo', status: 'streaming' })
  })

  it('finalises exactly once and ignores what comes after', async () => {
    const writer = createStreamingWriter(messageId, { intervalMs: 250 })
    writer.appendText('The answer is 84.')
    expect(await writer.finalise({ status: 'complete' })).toBe(true)
    const update = vi.spyOn(db.messages, 'update')
    writer.appendText(' extra')
    expect(await writer.finalise({ status: 'stopped' })).toBe(false)
    await vi.advanceTimersByTimeAsync(1000)
    await writer.flush()
    expect(update).not.toHaveBeenCalled()
    expect(await getMessage(messageId)).toMatchObject({ content: 'The answer is 84.', status: 'complete' })
  })

  it('lets the final patch replace the streamed text', async () => {
    const writer = createStreamingWriter(messageId)
    writer.appendText('<tool_call>{"name":"x"}</tool_call>')
    await writer.finalise({ content: '', status: 'complete' })
    expect((await getMessage(messageId))?.content).toBe('')
  })

  it('reports a failing background write as a StorageError through onError', async () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    vi.spyOn(db.messages, 'update').mockRejectedValue(quota)
    const onError = vi.fn()
    const writer = createStreamingWriter(messageId, { onError })
    writer.appendText('Hello')
    await vi.advanceTimersByTimeAsync(0)
    expect(onError).toHaveBeenCalledTimes(1)
    const error = onError.mock.calls[0]![0]
    expect(error).toBeInstanceOf(StorageError)
    expect(error).toMatchObject({ operation: 'write streaming message', cause: quota })
  })

  it('rejects finalise with a StorageError when the final write fails', async () => {
    vi.spyOn(db.messages, 'update').mockRejectedValue(new Error('disk gone'))
    const onError = vi.fn()
    const writer = createStreamingWriter(messageId, { onError })
    await expect(writer.finalise({ status: 'complete' })).rejects.toBeInstanceOf(StorageError)
    expect(onError).not.toHaveBeenCalled()
  })

  it('reports writes to a message deleted meanwhile', async () => {
    const onError = vi.fn()
    const writer = createStreamingWriter(messageId, { onError })
    await db.messages.delete(messageId)
    writer.appendText('late')
    await writer.flush()
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ name: 'StorageError', message: expect.stringContaining('no longer exists') }))
    await expect(writer.finalise({ status: 'complete' })).rejects.toMatchObject({ name: 'StorageError' })
  })
})
