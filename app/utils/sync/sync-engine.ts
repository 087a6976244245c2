import { liveQuery } from 'dexie'
import type { SyncPullResult, SyncPushResult } from '#shared/sync/sync-protocol'
import { getDatabase } from '~/db/database'
import type { PlugboardDatabase } from '~/db/database'
import { holdSearchIndex } from '~/db/search-index'
import { applyRemoteChanges } from '~/db/sync/apply-remote-changes'
import { enqueueEverything, nextOutboxBatch, settleOutbox } from '~/db/sync/outbox-changes'
import { fetchBlobs, missingBlobsOf, uploadBlobsOf } from '~/db/sync/sync-blobs'
import type { WantedBlobs } from '~/db/sync/sync-blobs'
import { dueWanted, loadWantedFiles, mergeWanted, saveWantedFiles } from '~/db/sync/wanted-files'
import type { AttachmentRecord } from '~/db/types'
import { deviceClock, setSyncRecording, syncRecording } from '~/db/sync/sync-outbox'
import { syncStatus } from './sync-status'
import { appText, appTextWithReason, refusalText } from '#shared/errors/app-messages'
import type { CodedText } from '#shared/errors/coded-text'

export interface SyncEngineOptions {
  /** @default getDatabase() */
  db?: PlugboardDatabase
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** Wait before pushing a write, so a burst of writes travels in one push. @default 150 */
  pushDelayMs?: number
  /** Longest wait between retries after a failure. @default 30000 */
  maxRetryMs?: number
  /** Called with each file fetched from the server and stored (a document gets its search passages from it). */
  onFileStored?: (record: AttachmentRecord) => void
}

class SyncRequestError extends Error {
  constructor(readonly text: CodedText, readonly status: number) {
    super(text.message)
  }
}

/**
 * Keeps this browser's Dexie and the server's copy in step: pushes the outbox, pulls the server's changes by
 * cursor, and listens on `GET /api/sync/events` so another device's change is pulled as soon as it is made.
 * Failures are retried with a growing pause (and at once when the browser is back online); a refusal by the server
 * (400, 413, 429) stops until the user asks to retry. Returns the stop.
 */
export function startSyncEngine(options: SyncEngineOptions = {}) {
  const { db = getDatabase(), fetch: request = globalThis.fetch.bind(globalThis), pushDelayMs = 150, maxRetryMs = 30_000, onFileStored } = options
  let stopped = false
  let running: Promise<void> | undefined
  let again = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let failures = 0
  let pending = 0
  let refused: CodedText | undefined
  let lastFailure: CodedText | undefined
  let events: EventSource | undefined
  // Files go up once per page, and the files of pulled messages are fetched until they arrive: the list is kept in
  // the database, so a reload retries them too (at once: a new page does not wait out the old page's pause).
  const uploaded = new Set<string>()
  let wanted: WantedBlobs[] | undefined
  let filesTimer: ReturnType<typeof setTimeout> | undefined
  // Until the first push-and-pull starts, the status stays as it is ("starting", or the consent question): the
  // outbox being empty does not mean this device has what the server holds.
  let started = false
  syncStatus.value = { state: 'starting' }

  async function call<T>(path: string, init?: RequestInit): Promise<T> {
    const response = await request(path, { credentials: 'same-origin', ...init, headers: { 'content-type': 'application/json', ...init?.headers } })
    if (!response.ok) {
      throw new SyncRequestError(refusalText(await response.json().catch(() => undefined), response.status), response.status)
    }
    return await response.json() as T
  }

  async function cycle(): Promise<void> {
    wanted ??= (await loadWantedFiles(db)).map(({ retryAt: _pause, ...entry }) => entry)
    for (;;) {
      const batch = await nextOutboxBatch(db)
      if (batch.tooLarge.length) {
        console.warn(`[sync] ${batch.tooLarge.length} record(s) are too large to sync and stay on this device only`)
        await settleOutbox(db, batch.tooLarge)
      }
      if (batch.changes.length === 0) break
      await uploadBlobsOf(db, batch.changes, request, uploaded)
      await call<SyncPushResult>('/api/sync/push', { method: 'POST', body: JSON.stringify({ changes: batch.changes }) })
      await settleOutbox(db, batch.rows)
    }
    const pull = (cursor: number) => {
      const page = call<SyncPullResult>(`/api/sync/pull?cursor=${cursor}`)
      // Awaited below; a page fetched ahead while an apply failed is dropped, not reported as unhandled.
      page.catch(() => {})
      return page
    }
    const start = Number((await db.syncState.get('cursor'))?.value ?? 0)
    let next = pull(start)
    // The word index of the pulled messages is written once the pull is done, not between its pages.
    const releaseIndex = holdSearchIndex(db)
    try {
      for (let cursor = start; ;) {
        const page = await next
        // The next page travels while this one is written: the server's time and the device's overlap.
        if (page.more) next = pull(page.cursor)
        if (page.changes.length > 0 || page.cursor !== cursor) await applyRemoteChanges(db, page.changes, page.cursor)
        const missing = await missingBlobsOf(db, page.changes)
        if (missing.length > 0) wanted = await saveWantedFiles(db, mergeWanted(wanted!, missing))
        cursor = page.cursor
        if (!page.more) break
      }
    }
    finally {
      releaseIndex()
    }
    await fetchWanted()
  }

  /** Fetches the files whose pause is over, keeps the rest, and wakes the engine when the next pause ends. */
  async function fetchWanted(): Promise<void> {
    clearTimeout(filesTimer)
    const due = dueWanted(wanted!, Date.now())
    if (due.length > 0) {
      const left = await fetchBlobs(db, due, request, { onStored: onFileStored, maxRetryMs })
      wanted = await saveWantedFiles(db, [...wanted!.filter(entry => !due.includes(entry)), ...left])
    }
    if (wanted!.length > 0 && !stopped) {
      const next = Math.min(...wanted!.map(entry => entry.retryAt ?? 0))
      filesTimer = setTimeout(run, Math.max(0, next - Date.now()))
    }
  }

  function show(): void {
    if (stopped || !started) return
    if (refused) syncStatus.value = { state: 'error', pending, message: refused.message, text: refused }
    else if (running) syncStatus.value = { state: 'syncing', pending }
    else if (failures > 0) syncStatus.value = globalThis.navigator?.onLine === false ? { state: 'offline', pending } : { state: 'error', pending, message: lastFailure?.message ?? '', text: lastFailure }
    else syncStatus.value = pending > 0 ? { state: 'pending', pending } : { state: 'synced' }
  }

  /** Runs a push-and-pull now, or once more after the one under way. */
  function run(): void {
    if (stopped || refused) return
    clearTimeout(timer)
    if (running) {
      again = true
      return
    }
    running = cycle().then(
      () => { failures = 0 },
      (error: unknown) => {
        if (error instanceof SyncRequestError && [400, 401, 403, 404, 413, 429].includes(error.status)) {
          refused = error.text
          return
        }
        failures += 1
        // a failed request's own words (coded when the server coded them) go inside the sentence
        const reason = (error as { text?: CodedText }).text
        lastFailure = reason ? appTextWithReason('app.sync.unreachable', reason) : appText('app.sync.unreachable', { reason: (error as Error).message })
        timer = setTimeout(run, Math.min(maxRetryMs, 500 * 2 ** Math.min(failures, 8)))
      },
    ).finally(() => {
      running = undefined
      show()
      if (again) {
        again = false
        run()
      }
    })
    show()
  }

  function schedule(): void {
    if (stopped || refused) return
    if (running) {
      again = true
      return
    }
    clearTimeout(timer)
    timer = setTimeout(run, pushDelayMs)
  }

  function listen(): void {
    if (typeof EventSource === 'undefined') return
    events = new EventSource('/api/sync/events')
    // `ready` on each (re)connection: changes made while the stream was down are pulled then.
    events.onmessage = () => run()
    events.onerror = () => {
      if (!refused) show()
    }
  }

  const pendingCount = liveQuery(() => db.syncOutbox.count()).subscribe({
    next(count) {
      pending = count
      show()
      // Writes of this page call `onRecorded`; those of other tabs of this browser arrive here.
      if (count > 0) schedule()
    },
    error: error => console.warn('[sync] could not count the outbox', error),
  })
  syncRecording.onRecorded = schedule
  const online = () => {
    failures = 0
    run()
  }
  const offline = () => show()
  globalThis.addEventListener?.('online', online)
  globalThis.addEventListener?.('offline', offline)

  /** Asks once, then syncs: with `localChats` > 0 the user says whether this browser's chats go up too. */
  async function begin(): Promise<void> {
    const consent = (await db.syncState.get('consent'))?.value
    if (!consent) {
      const localChats = await db.threads.count()
      if (localChats > 0) {
        syncStatus.value = { state: 'consent', localChats }
        return
      }
      await db.syncState.put({ key: 'consent', value: 'all' })
    }
    setSyncRecording(true)
    started = true
    listen()
    run()
  }

  void begin().catch((error: unknown) => {
    refused = appText('app.sync.couldNotStart', { reason: (error as Error).message })
    started = true
    show()
  })

  return {
    /** The user's answer to "Upload your n local chats?": `all` uploads them, `new` syncs from now on only. */
    async answerConsent(answer: 'all' | 'new'): Promise<void> {
      if (answer === 'all') await enqueueEverything(db, () => deviceClock.now())
      await db.syncState.put({ key: 'consent', value: answer })
      await begin()
    },
    /** Tries again after a refusal or while waiting out a failure. */
    retry(): void {
      refused = undefined
      failures = 0
      wanted = wanted?.map(({ retryAt: _pause, ...entry }) => entry)
      run()
    },
    stop(): void {
      stopped = true
      clearTimeout(timer)
      clearTimeout(filesTimer)
      pendingCount.unsubscribe()
      events?.close()
      if (syncRecording.onRecorded === schedule) syncRecording.onRecorded = undefined
      globalThis.removeEventListener?.('online', online)
      globalThis.removeEventListener?.('offline', offline)
    },
  }
}

export type SyncEngine = ReturnType<typeof startSyncEngine>
