import { beforeAll, describe, expect, it } from 'vitest'
import { createShareLinkStore } from '~~/server/utils/share/share-link-store'
import type { ShareLinkStore } from '~~/server/utils/share/share-link-store'
import { hashShareToken, isShareTokenShape, newShareToken } from '~~/server/utils/share/share-token'
import { MAX_REVOKED_SHARE_LINKS_PER_OWNER } from '~~/server/utils/share/share-limits'
import type { ShareSnapshot } from '#shared/share/share-snapshot'
import { describeOnDatabases } from './helpers/database-backends'

let owners = 0
const freshOwner = () => `owner-${++owners}-${Math.random().toString(36).slice(2)}`
function snapshot(title = 'Weather in Paris'): ShareSnapshot {
  return { version: 1, title, takenAt: 1_000, messages: [{ id: 'm1', role: 'user', content: 'Hello', status: 'complete', createdAt: 1_000 }] }
}
function link(ownerId: string, title?: string) {
  const token = newShareToken()
  return { token, link: { ownerId, tokenHash: hashShareToken(token), snapshot: snapshot(title), bytes: 120, createdAt: Date.now() } }
}

describe('share tokens', () => {
  it('are 256 random bits, stored only as a hash', () => {
    const tokens = new Set(Array.from({ length: 200 }, newShareToken))
    expect(tokens.size).toBe(200)
    for (const token of tokens) expect(isShareTokenShape(token)).toBe(true)
    const [token] = tokens
    expect(hashShareToken(token!)).toMatch(/^[0-9a-f]{64}$/)
    expect(hashShareToken(token!)).not.toContain(token)
    expect(isShareTokenShape('../../etc/passwd')).toBe(false)
    expect(isShareTokenShape(`${token}x`)).toBe(false)
  })
})

describeOnDatabases('the share link store', (databases) => {
  let store: ShareLinkStore
  let other: ShareLinkStore
  beforeAll(() => {
    store = createShareLinkStore(databases.first.db)
    other = createShareLinkStore(databases.second.db)
  })

  it('opens a link by its token\'s hash, lists it for its owner only, and never lists the snapshot', async () => {
    const owner = freshOwner()
    const { token, link: first } = link(owner, 'First')
    const created = await store.create(first, 100)
    expect(created).toMatchObject({ title: 'First', bytes: 120 })
    const read = await other.read(hashShareToken(token))
    expect(read).toEqual({ state: 'shared', snapshot: snapshot('First'), createdAt: first.createdAt })
    expect(await other.read(hashShareToken(newShareToken()))).toEqual({ state: 'missing' })
    const listed = await other.list(owner)
    expect(listed).toEqual([created])
    expect(JSON.stringify(listed)).not.toContain('Hello')
    expect(await store.list(freshOwner())).toEqual([])
  })

  it('revokes only for the owner; a revoked link reads as revoked and keeps no snapshot', async () => {
    const owner = freshOwner()
    const { token, link: made } = link(owner)
    const created = (await store.create(made, 100))!
    expect(await other.revoke(freshOwner(), created.id)).toBe(false)
    expect((await store.read(hashShareToken(token))).state).toBe('shared')
    expect(await other.revoke(owner, created.id)).toBe(true)
    expect(await store.revoke(owner, created.id)).toBe(false)
    const read = await store.read(hashShareToken(token))
    expect(read.state).toBe('revoked')
    expect(JSON.stringify(read)).not.toContain('Hello')
    expect((await store.list(owner))[0]!.revokedAt).toBeGreaterThan(0)
  })

  it('holds the per-owner cap when two instances share at once, and a revoke makes room', async () => {
    const owner = freshOwner()
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 ? other : store).create(link(owner).link, 5)))
    expect(results.filter(Boolean)).toHaveLength(5)
    expect(await store.list(owner)).toHaveLength(5)
    expect(await store.create(link(owner).link, 5)).toBeUndefined()
    // another owner is not held back by this one's cap
    expect(await store.create(link(freshOwner()).link, 5)).toBeDefined()
    expect(await store.revoke(owner, results.find(Boolean)!.id)).toBe(true)
    expect(await other.create(link(owner).link, 5)).toBeDefined()
  })

  it('forgets the oldest revoked links past their own cap', async () => {
    const owner = freshOwner()
    for (let index = 0; index < MAX_REVOKED_SHARE_LINKS_PER_OWNER + 3; index++) {
      const created = (await store.create(link(owner).link, 1))!
      expect(await store.revoke(owner, created.id)).toBe(true)
    }
    await store.create(link(owner).link, 1)
    const listed = await store.list(owner)
    expect(listed.filter(each => each.revokedAt)).toHaveLength(MAX_REVOKED_SHARE_LINKS_PER_OWNER)
    expect(listed.filter(each => !each.revokedAt)).toHaveLength(1)
  }, 120_000)
})
