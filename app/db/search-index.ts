import { Dexie } from 'dexie'
import type { PlugboardDatabase } from './database'
import { installSearchIndexRecorder } from './search-index-recorder'
import type { MessageRecord } from './types'

/**
 * A word index of the messages, so `search_chat_history` reads the few rows that can match instead of every row.
 *
 * One row per message in the `searchIndex` table (`id` = the message's id, `*words` a multi-entry index): the
 * distinct lower-case words of a user or assistant message (tool rows get none). A middleware on `messages` queues
 * every add, change of text and delete (from the rows written, without reading them back), and the queue is written
 * a moment later in its own transaction, so the writes a reply makes while it streams never wait for it; a search writes what is queued first. Rows written
 * around Dexie (an import straight into IndexedDB) are found when the two tables' counts differ, and indexed then.
 * `searchWords` lists every indexed word once, so a lone query word that may sit inside longer words is looked up
 * by the words that contain it.
 *
 * The index only narrows: every candidate is checked with the same case-insensitive substring test as a full scan,
 * so the answers are the same. Bounded: a word is kept to MAX_WORD_LENGTH characters and a message to
 * MAX_WORDS_PER_MESSAGE words; a message past either bound is marked OVERFLOW and is a candidate of every search.
 */

/** Characters of a word that are indexed. */
export const MAX_WORD_LENGTH = 48
/** Distinct words indexed per message. */
export const MAX_WORDS_PER_MESSAGE = 4_000
/** The word of a message that was not indexed whole: it is checked by every search. Sorts before any word. */
export const OVERFLOW_WORD = '\u0000'

const WORD = /[\p{L}\p{M}\p{N}]+/gu
/** How long the index waits for the messages to be quiet (a streamed reply's text changes every 250 ms). */
const FLUSH_DELAY_MS = 1_000

export interface SearchIndexRow {
  /** The message's id. */
  id: string
  words: string[]
}

/** A word that some message has (or had: words of deleted messages stay, which only widens a lookup). */
export interface SearchWordRow {
  word: string
}

/** Past this many words in `searchWords` (deleted messages leave theirs), it is rebuilt from the index. */
export const MAX_VOCABULARY_WORDS = 200_000
/** Words of the vocabulary a lone query word may match; past this the query is too vague and every row is read. */
const MAX_MATCHING_WORDS = 300

/** The indexed words of a message's text: distinct, lower case, bounded (see the module comment). */
export function searchWordsOf(role: MessageRecord['role'] | undefined, content: string | undefined): string[] {
  if ((role !== 'user' && role !== 'assistant') || !content) return []
  const words = new Set<string>()
  let overflow = false
  for (const [word] of content.toLocaleLowerCase().matchAll(WORD)) {
    if (word.length > MAX_WORD_LENGTH) overflow = true
    else words.add(word)
    if (words.size > MAX_WORDS_PER_MESSAGE) return [OVERFLOW_WORD]
  }
  if (overflow) words.add(OVERFLOW_WORD)
  return [...words]
}

type Pending = Map<string, { role?: MessageRecord['role'], content?: string } | null>
interface Queue { pending: Pending, timer?: ReturnType<typeof setTimeout>, holds: number }
const pendingByDatabase = new WeakMap<PlugboardDatabase, Queue>()

function queueOf(db: PlugboardDatabase): Queue {
  let queue = pendingByDatabase.get(db)
  if (!queue) pendingByDatabase.set(db, queue = { pending: new Map(), holds: 0 })
  return queue
}

function scheduleFlush(db: PlugboardDatabase, queue: Queue): void {
  // Restarted by every change: a reply that is still streaming is indexed once, after it ends.
  if (queue.timer) clearTimeout(queue.timer)
  queue.timer = setTimeout(() => {
    queue.timer = undefined
    if (queue.holds > 0) return
    whenIdle(() => flushQueued(db).catch((error: unknown) => {
      // a database closed meanwhile (the page going away, or a test's fresh database) has nothing left to write into
      if ((error as Error | undefined)?.name !== 'DatabaseClosedError') console.warn('[plugboard] could not update the search index', error)
    }))
  }, FLUSH_DELAY_MS)
}

/**
 * Queues the index change of one message: its new role and text, or null once it is deleted. Called by the
 * middleware that follows `messages` (`search-index-recorder.ts`) after each write.
 */
export function queueSearchIndexChange(db: PlugboardDatabase, id: string, message: { role?: MessageRecord['role'], content?: string } | null): void {
  const queue = queueOf(db)
  queue.pending.set(id, message)
  scheduleFlush(db, queue)
}

/**
 * Holds the index's background writes until the returned release is called (a sync pull writing thousands of
 * messages: indexing them page by page would compete with the writes, once afterwards costs the same work). A
 * search still writes what is queued first.
 */
export function holdSearchIndex(db: PlugboardDatabase): () => void {
  const queue = queueOf(db)
  queue.holds += 1
  let released = false
  return () => {
    if (released) return
    released = true
    queue.holds -= 1
    if (queue.holds === 0 && queue.pending.size > 0) scheduleFlush(db, queue)
  }
}

/** Runs `work` when the page is idle (the index is never urgent: a search writes what is queued first). */
function whenIdle(work: () => unknown): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => work(), { timeout: 5_000 })
  else work()
}

/** Keeps `searchIndex` following `messages` (called once per database, in its constructor). */
export function installSearchIndexHooks(db: PlugboardDatabase): void {
  installSearchIndexRecorder(db, (id, message) => queueSearchIndexChange(db, id, message))
}

/** Writes the queued index changes now. */
async function flushQueued(db: PlugboardDatabase): Promise<void> {
  const queue = queueOf(db)
  if (queue.timer) clearTimeout(queue.timer)
  queue.timer = undefined
  if (queue.pending.size === 0) return
  const batch = [...queue.pending]
  queue.pending.clear()
  const rows: SearchIndexRow[] = []
  const deleted: string[] = []
  for (const [id, message] of batch) {
    if (message) rows.push({ id, words: searchWordsOf(message.role, message.content) })
    else deleted.push(id)
  }
  // Outside whatever transaction the caller is in: the index has its own.
  await Dexie.ignoreTransaction(() => db.transaction('rw', db.searchIndex, db.searchWords, async () => {
    await putIndexRows(db, rows)
    if (deleted.length) await db.searchIndex.bulkDelete(deleted)
  }))
}

async function putIndexRows(db: PlugboardDatabase, rows: SearchIndexRow[]): Promise<void> {
  if (rows.length === 0) return
  await db.searchIndex.bulkPut(rows)
  // Only words not listed yet: a long reply repeats most of the words the vocabulary has.
  const words = [...new Set(rows.flatMap(row => row.words))]
  const known = await db.searchWords.bulkGet(words)
  const added = words.filter((_, index) => known[index] === undefined)
  if (added.length) await db.searchWords.bulkPut(added.map(word => ({ word })))
}

/**
 * Brings the index up to date: the queued changes, then messages the middleware never saw (written around Dexie, or
 * before the index existed) and index rows whose message is gone.
 */
export async function updateSearchIndex(db: PlugboardDatabase): Promise<void> {
  await flushQueued(db)
  // The same number of rows in both: in step (index rows follow the messages). Comparing
  // every key costs more than the search itself over 10,000 messages.
  const [messageCount, indexedCount, wordCount] = await Promise.all([db.messages.count(), db.searchIndex.count(), db.searchWords.count()])
  if (messageCount !== indexedCount) {
    const [messageIds, indexedIds] = await Promise.all([
      db.messages.toCollection().primaryKeys(),
      db.searchIndex.toCollection().primaryKeys(),
    ])
    await indexMissing(db, messageIds, indexedIds)
  }
  if (wordCount > MAX_VOCABULARY_WORDS) await rebuildVocabulary(db)
}

async function indexMissing(db: PlugboardDatabase, messageIds: string[], indexedIds: string[]): Promise<void> {
  const indexed = new Set(indexedIds)
  const missing = messageIds.filter(id => !indexed.delete(id))
  const BATCH = 500
  for (let start = 0; start < missing.length; start += BATCH) {
    const messages = await db.messages.bulkGet(missing.slice(start, start + BATCH))
    const rows = messages.filter(message => message !== undefined)
      .map(message => ({ id: message.id, words: searchWordsOf(message.role, message.content) }))
    await db.transaction('rw', db.searchIndex, db.searchWords, () => putIndexRows(db, rows))
  }
  if (indexed.size) await db.searchIndex.bulkDelete([...indexed])
}

/** `searchWords` again from the words the index holds now (a cursor over the index: slow, and rare). */
async function rebuildVocabulary(db: PlugboardDatabase): Promise<void> {
  await db.transaction('rw', db.searchIndex, db.searchWords, async () => {
    const words = await db.searchIndex.orderBy('words').uniqueKeys() as string[]
    await db.searchWords.clear()
    await db.searchWords.bulkPut(words.map(word => ({ word })))
  })
}

/** The words of a query and whether each is cut by the query's start or end (then it may be part of a longer word). */
function queryWords(needle: string) {
  return [...needle.matchAll(WORD)].map(match => ({
    word: match[0].slice(0, MAX_WORD_LENGTH),
    startsWord: match.index > 0,
    endsWord: match.index + match[0].length < needle.length,
  }))
}

/**
 * The ids of the messages that may contain `needle` (lower case), or null when the index cannot narrow the search
 * (a query without letters or digits, or a lone word found inside too many words). A word of the query with other characters on both sides must be a whole
 * word of the message; one with a character before it only starts a word; the query's first word, when the query
 * starts with it, may end a longer word, and a lone word may sit inside one: those are looked up in the list of
 * indexed words.
 */
export async function candidateMessageIds(db: PlugboardDatabase, needle: string): Promise<Set<string> | null> {
  const words = queryWords(needle)
  if (words.length === 0) return null
  // Each lookup is one key range of the index, which IndexedDB answers with getAllKeys (no cursor).
  const withWord = (word: string) => db.searchIndex.where('words').equals(word).primaryKeys()
  const lookups: Array<Promise<string[]>> = []
  for (const { word, startsWord, endsWord } of words) {
    if (startsWord && endsWord) lookups.push(withWord(word))
    else if (startsWord) lookups.push(db.searchIndex.where('words').startsWith(word).primaryKeys())
  }
  if (lookups.length === 0) {
    // Only a word that may be inside or at the end of a longer one: find those among the words messages have.
    const [{ word, endsWord }] = words as [ReturnType<typeof queryWords>[number]]
    const vocabulary = await db.searchWords.toCollection().primaryKeys()
    const matching = vocabulary.filter(known => (endsWord ? known.endsWith(word) : known.includes(word)))
    if (matching.length > MAX_MATCHING_WORDS) return null
    lookups.push(Promise.all(matching.map(withWord)).then(sets => sets.flat()))
  }
  const [overflowing, ...sets] = await Promise.all([withWord(OVERFLOW_WORD), ...lookups])
  const [smallest, ...others] = sets.map(ids => new Set(ids)).sort((a, b) => a.size - b.size) as [Set<string>, ...Set<string>[]]
  for (const id of smallest) if (others.some(set => !set.has(id))) smallest.delete(id)
  // Messages not indexed whole are checked by every search.
  for (const id of overflowing!) smallest.add(id)
  return smallest
}
