import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSyncNotifier, SYNC_CHANNEL, SyncListenersFullError } from '~~/server/utils/sync/sync-notifier'
import type { SyncNotifier } from '~~/server/utils/sync/sync-notifier'
import { startRedisServer } from './helpers/redis-server'
import type { RedisServer } from './helpers/redis-server'

/** Resolves with the next cursor `notifier` delivers to `ownerId`. */
async function nextCursor(notifier: SyncNotifier, ownerId: string): Promise<{ cursor: Promise<number>, stop: () => void }> {
  let resolve!: (cursor: number) => void
  const cursor = new Promise<number>((done) => {
    resolve = done
  })
  const stop = await notifier.subscribe(ownerId, (value) => {
    resolve(value)
  })
  return { cursor, stop }
}

describe('the sync notifier in one process', () => {
  it('tells only the owner\'s listeners, and not after they stop', async () => {
    const notifier = createSyncNotifier()
    const heard: string[] = []
    const stopA = await notifier.subscribe('owner-a', cursor => void heard.push(`a:${cursor}`))
    await notifier.subscribe('owner-b', cursor => void heard.push(`b:${cursor}`))
    await notifier.publish('owner-a', 3)
    expect(heard).toEqual(['a:3'])
    stopA()
    await notifier.publish('owner-a', 4)
    expect(heard).toEqual(['a:3'])
    expect(notifier.listenerCount()).toBe(1)
  })

  it('drops a listener that can no longer deliver (it says so or throws) and keeps telling the others', async () => {
    const notifier = createSyncNotifier()
    const heard: number[] = []
    await notifier.subscribe('owner', () => false)
    await notifier.subscribe('owner', () => {
      throw new Error('socket gone')
    })
    await notifier.subscribe('owner', cursor => void heard.push(cursor))
    await notifier.publish('owner', 1)
    expect(notifier.listenerCount()).toBe(1)
    await notifier.publish('owner', 2)
    expect(heard).toEqual([1, 2])
  })

  it('refuses a listener past its cap, and takes one again once a slot is free', async () => {
    const notifier = createSyncNotifier(undefined, { maxListeners: 2 })
    const stop = await notifier.subscribe('owner-a', () => {})
    await notifier.subscribe('owner-b', () => {})
    await expect(notifier.subscribe('owner-c', () => {})).rejects.toBeInstanceOf(SyncListenersFullError)
    stop()
    await expect(notifier.subscribe('owner-c', () => {})).resolves.toBeTypeOf('function')
    expect(notifier.listenerCount()).toBe(2)
  })
})

describe('the sync notifier across instances on one redis-server', () => {
  let server: RedisServer
  const clients: Redis[] = []
  const notifiers: SyncNotifier[] = []
  beforeAll(async () => {
    server = await startRedisServer()
  }, 60_000)
  afterAll(async () => {
    for (const notifier of notifiers) await notifier.close()
    for (const client of clients) client.disconnect()
    await server?.stop()
  })
  const instance = () => {
    const client = new Redis(server.url, { maxRetriesPerRequest: 1 })
    clients.push(client)
    const notifier = createSyncNotifier(client)
    notifiers.push(notifier)
    return notifier
  }

  it('a push through instance A reaches a listener on instance B, and only the owner\'s', async () => {
    const [a, b] = [instance(), instance()]
    const other: number[] = []
    await b.subscribe('someone-else', cursor => void other.push(cursor))
    const { cursor } = await nextCursor(b, 'owner')
    await a.publish('owner', 42)
    expect(await cursor).toBe(42)
    expect(other).toEqual([])
  })

  it('ignores messages on the channel that are not its own', async () => {
    const [a, b] = [instance(), instance()]
    const { cursor } = await nextCursor(b, 'owner')
    await clients[0]!.publish(SYNC_CHANNEL, 'not json')
    await clients[0]!.publish(SYNC_CHANNEL, JSON.stringify({ ownerId: 'owner', cursor: 'seven' }))
    await a.publish('owner', 7)
    expect(await cursor).toBe(7)
  })
})
