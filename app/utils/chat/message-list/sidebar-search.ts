import type { MessageSearchHit } from '~/db/search-messages'

/** A message that matched the sidebar's search, with the part of its text to show around the match. */
export interface MessageResult {
  threadId: string
  threadTitle: string
  messageId: string
  role: string
  createdAt: number
  snippet: Snippet
}

/** Text around the first match: `match` is shown highlighted between `before` and `after`. */
export interface Snippet {
  before: string
  match: string
  after: string
}

/** Characters of context shown on each side of the match. */
const SNIPPET_CONTEXT = 40
/** Messages shown per chat, so one long chat does not fill the results. */
const RESULTS_PER_CHAT = 3

/**
 * The text around the first case-insensitive occurrence of `query` in `content`, on one line, cut at word edges
 * where possible with an ellipsis; the start of the text when it does not occur (the index matched otherwise).
 */
export function snippetAround(content: string, query: string, context = SNIPPET_CONTEXT): Snippet {
  const text = content.replace(/\s+/g, ' ').trim()
  const needle = query.trim().toLocaleLowerCase()
  const index = needle ? text.toLocaleLowerCase().indexOf(needle) : -1
  if (index < 0) return { before: '', match: '', after: cut(text, 0, context * 2, true) }
  const end = index + needle.length
  return { before: cut(text, Math.max(0, index - context), index, false), match: text.slice(index, end), after: cut(text, end, end + context, true) }
}

function cut(text: string, from: number, to: number, atEnd: boolean): string {
  let part = text.slice(from, to)
  if (atEnd && to < text.length) {
    const space = part.lastIndexOf(' ')
    part = `${space > part.length / 2 ? part.slice(0, space) : part}…`
  }
  else if (!atEnd && from > 0) {
    const space = part.indexOf(' ')
    part = `…${space >= 0 && space < part.length / 2 ? part.slice(space + 1) : part}`
  }
  return part
}

/** Whether `query` stands as whole words in `text` (not inside a longer word). */
function matchesWholeWords(text: string, needle: string): boolean {
  const lower = text.toLocaleLowerCase()
  const isWordCharacter = (character: string | undefined) => character !== undefined && /[\p{L}\p{M}\p{N}]/u.test(character)
  for (let index = lower.indexOf(needle); index >= 0; index = lower.indexOf(needle, index + 1)) {
    if (!isWordCharacter(lower[index - 1]) && !isWordCharacter(lower[index + needle.length])) return true
  }
  return false
}

/**
 * The message results of the sidebar's search, best first: messages in chats whose title did not match already
 * (those are listed above as chats), the query as whole words before inside a longer word, then newest first; at
 * most RESULTS_PER_CHAT per chat.
 */
export function rankMessageResults(hits: readonly MessageSearchHit[], query: string, titleMatchIds: ReadonlySet<string> = new Set(), limit = 20): MessageResult[] {
  const needle = query.trim().toLocaleLowerCase()
  if (!needle) return []
  const perChat = new Map<string, number>()
  return hits
    .filter(hit => !titleMatchIds.has(hit.threadId))
    .map(hit => ({ hit, whole: matchesWholeWords(hit.content, needle) }))
    .sort((a, b) => Number(b.whole) - Number(a.whole) || b.hit.createdAt - a.hit.createdAt)
    .filter(({ hit }) => {
      const count = (perChat.get(hit.threadId) ?? 0) + 1
      perChat.set(hit.threadId, count)
      return count <= RESULTS_PER_CHAT
    })
    .slice(0, limit)
    .map(({ hit }) => ({
      threadId: hit.threadId,
      threadTitle: hit.threadTitle,
      messageId: hit.messageId,
      role: hit.role,
      createdAt: hit.createdAt,
      snippet: snippetAround(hit.content, needle),
    }))
}
