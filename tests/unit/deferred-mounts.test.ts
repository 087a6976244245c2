// The page is ready for input only once the parts of the first screen that mount after its first paint have.
import { describe, expect, it } from 'vitest'
import { deferredMountsDone, trackDeferredMount } from '~/utils/chat/message-list/deferred-mounts'

describe('deferred mounts', () => {
  it('is done at once when nothing waits to mount', async () => {
    await expect(deferredMountsDone()).resolves.toBeUndefined()
  })

  it('is done only once every part registered has mounted, each counted once', async () => {
    const header = trackDeferredMount()
    const sidebar = trackDeferredMount()
    let done = false
    void deferredMountsDone().then(() => { done = true })
    header()
    header()
    await Promise.resolve()
    expect(done).toBe(false)
    sidebar()
    await Promise.resolve()
    expect(done).toBe(true)
  })
})
