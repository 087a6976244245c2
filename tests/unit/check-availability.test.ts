import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { checkAvailability } from '../../app/utils/chat/registry/check-availability'
import type { RegisteredTool } from '../../app/utils/chat/registry/tool-registry-types'

const toolWith = (available: RegisteredTool['available'], unavailableReason?: string) => ({ name: 't', available, unavailableReason } as RegisteredTool)

describe('availability checks', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('gives the tool\'s own reason when its check says no', async () => {
    await expect(checkAvailability(toolWith(async () => false, 'Needs earlier chats'), { threadId: 'a' })).resolves.toBe('Needs earlier chats')
    await expect(checkAvailability(toolWith(() => true), { threadId: 'a' })).resolves.toBeUndefined()
  })

  it('counts a throwing check as unavailable, with the error as reason', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await expect(checkAvailability(toolWith(() => { throw new Error('boom') }), { threadId: 'a' })).resolves.toBe('Check failed: boom')
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('availability check of tool "t" failed'))
    warn.mockRestore()
  })

  it('counts a check slower than a second as unavailable', async () => {
    const pending = checkAvailability(toolWith(() => new Promise<boolean>(() => {})), { threadId: 'a' })
    await vi.advanceTimersByTimeAsync(999)
    let settled = false
    void pending.then(() => (settled = true))
    await vi.advanceTimersByTimeAsync(0)
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await expect(pending).resolves.toBe('Check took longer than 1000 ms')
  })

  it('rejects at once when Stop is pressed while waiting', async () => {
    const controller = new AbortController()
    const pending = checkAvailability(toolWith(() => new Promise<boolean>(() => {})), { threadId: 'a', signal: controller.signal })
    controller.abort(new DOMException('stopped', 'AbortError'))
    await expect(pending).rejects.toThrow('stopped')
  })
})
