import { beforeAll, expect, it } from 'vitest'
import { AccountRefusal, createAccountStore } from '~~/server/utils/accounts/account-store'
import type { AccountStore } from '~~/server/utils/accounts/account-store'
import { createDatabaseWorkflowStore } from '~~/server/utils/workflows/database-workflow-store'
import { describeOnDatabases } from './helpers/database-backends'

let serial = 0
const passkey = () => ({ credentialId: `cred-${++serial}`, publicKey: 'pk', counter: 0, transports: ['internal'], createdAt: serial })
const account = (name: string) => ({ id: `acc-${++serial}`, name, createdAt: serial })

describeOnDatabases('the account store', (databases) => {
  let store: AccountStore
  let other: AccountStore
  beforeAll(() => {
    store = createAccountStore(databases.first.db)
    other = createAccountStore(databases.second.db)
  })

  it('makes one admin only, even when two instances race for it', async () => {
    const results = await Promise.allSettled([
      store.createFirstAdmin(account('Ada'), passkey()),
      other.createFirstAdmin(account('Eve'), passkey()),
    ])
    expect(results.filter(result => result.status === 'fulfilled')).toHaveLength(1)
    const refused = results.find(result => result.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toBeInstanceOf(AccountRefusal)
    const accounts = await store.listAccounts()
    expect(accounts).toHaveLength(1)
    expect(accounts[0]!.role).toBe('admin')
    await expect(store.createFirstAdmin(account('Late'), passkey())).rejects.toThrow(/admin already/)
  })

  it('lets an invite make one member, once, before it expires', async () => {
    const [admin] = await store.listAccounts()
    const now = Date.now()
    await store.createInvite({ id: 'inv-1', tokenHash: 'hash-1', createdBy: admin!.id, createdAt: now, expiresAt: now + 60_000, usedAt: null })
    await store.createInvite({ id: 'inv-2', tokenHash: 'hash-2', createdBy: admin!.id, createdAt: now, expiresAt: now - 1, usedAt: null })
    expect(await store.inviteUsable('hash-1', now)).toBe(true)
    expect(await store.inviteUsable('hash-2', now)).toBe(false)
    expect(await store.inviteUsable('forged', now)).toBe(false)

    const uses = await Promise.allSettled([
      store.createFromInvite('hash-1', account('Bob'), passkey(), now),
      other.createFromInvite('hash-1', account('Mallory'), passkey(), now),
    ])
    expect(uses.filter(result => result.status === 'fulfilled')).toHaveLength(1)
    expect(await store.inviteUsable('hash-1', now)).toBe(false)
    await expect(store.createFromInvite('hash-2', account('Late'), passkey(), now)).rejects.toBeInstanceOf(AccountRefusal)
    await expect(store.createFromInvite('forged', account('Forger'), passkey(), now)).rejects.toBeInstanceOf(AccountRefusal)
    const members = (await store.listAccounts()).filter(row => row.role === 'member')
    expect(members).toHaveLength(1)
    // a refused sign-up leaves no account and no passkey behind
    expect(await store.countAccounts()).toBe(2)
  })

  it('keeps several passkeys per account and their counters', async () => {
    const [admin] = await store.listAccounts()
    const second = { ...passkey(), accountId: admin!.id }
    await store.addPasskey(second)
    expect((await store.listPasskeys(admin!.id)).map(row => row.credentialId)).toContain(second.credentialId)
    await store.updateCounter(second.credentialId, 7)
    expect((await other.getPasskey(second.credentialId))?.counter).toBe(7)
    await expect(store.addPasskey({ ...second, accountId: admin!.id })).rejects.toThrow()
  })

  it('uses a challenge once, on any instance, and never after it expired', async () => {
    const now = Date.now()
    await store.putChallenge({ attemptId: 'attempt-1', challenge: 'c1', purpose: 'sign-in', accountId: '', expiresAt: now + 60_000 }, now)
    await store.putChallenge({ attemptId: 'attempt-2', challenge: 'c2', purpose: 'sign-in', accountId: '', expiresAt: now + 10 }, now)
    await store.putChallenge({ attemptId: 'attempt-3', challenge: 'c3', purpose: 'sign-up', accountId: 'acc-x', expiresAt: now + 60_000 }, now)
    const taken = await Promise.all([store.takeChallenge('attempt-1', 'sign-in', now), other.takeChallenge('attempt-1', 'sign-in', now)])
    expect(taken.filter(Boolean)).toHaveLength(1)
    expect(await store.takeChallenge('attempt-1', 'sign-in', now)).toBeUndefined()
    expect(await store.takeChallenge('attempt-2', 'sign-in', now + 20)).toBeUndefined()
    // a challenge made for a sign-up does not answer a sign-in
    expect(await store.takeChallenge('attempt-3', 'sign-in', now)).toBeUndefined()
  })

  it('removes an account with its passkeys, its invites and the workflows it owns', async () => {
    const member = (await store.listAccounts()).find(row => row.role === 'member')!
    const [admin] = await store.listAccounts()
    const workflows = createDatabaseWorkflowStore(databases.first.db)
    const recipe = { name: 'Digest', systemPrompt: '', model: 'plugboard/demo', tools: [], firstMessage: 'Hi' }
    await workflows.create({ ...recipe, id: 'wf-member', sessionId: member.id, createdAt: 1, updatedAt: 1 }, 50)
    await workflows.create({ ...recipe, id: 'wf-admin', sessionId: admin!.id, createdAt: 1, updatedAt: 1 }, 50)
    expect(await store.removeAccount(member.id)).toBe(true)
    expect(await store.getAccount(member.id)).toBeUndefined()
    expect(await store.listPasskeys(member.id)).toEqual([])
    expect(await workflows.list(member.id)).toEqual([])
    expect((await workflows.list(admin!.id)).map(row => row.id)).toEqual(['wf-admin'])
    expect(await store.removeAccount(member.id)).toBe(false)
  })
})
