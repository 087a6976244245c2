import type { DemoIntent } from './demo-intents'

// "search my chats for cats and dogs": the query is everything after "for", up to the end of the message.
const SEARCH_FOR = /\bsearch\s+(?:through\s+|in\s+)?(?:my\s+|the\s+|all\s+)?(?:old\s+|past\s+|previous\s+)?(?:chats?|chat history|history|conversations?|threads?|messages?)\s+(?:for|about)\s+/gi
// "find the invoice in my chats": the query is what lies between "find" and the first "in my chats" after it.
const FIND = /\bfind\s+/gi
const IN_HISTORY = /(?<!\s)\s+in\s+(?:my\s+|the\s+)?(?:chats?|chat history|history|conversations?|threads?)\b/gi
const LINE_BREAK = /[\n\r\u2028\u2029]/g

/** Where the last line of `text` starts (`.` in a pattern never crosses a line break). */
function lastLineStart(text: string): number {
  for (let index = text.length - 1; index >= 0; index--) {
    if ('\n\r\u2028\u2029'.includes(text[index]!)) return index + 1
  }
  return 0
}

/**
 * "search ... for <query>" with the query on the last line, as `/\bsearch ... for\s+(.+)$/i` matched it. That
 * pattern scanned to the end of the line once per "search" in the message; here each "search" costs its own words.
 */
function searchFor(text: string): { index: number, query: string } | undefined {
  const lastLine = lastLineStart(text)
  for (const match of text.matchAll(SEARCH_FOR)) {
    const start = match.index + match[0].length
    if (start >= lastLine && start < text.length) return { index: match.index, query: text.slice(start) }
  }
  return undefined
}

/**
 * "find <query> in my chats", as `/\bfind\s+(.+?)\s+in\s+(?:my\s+|the\s+)?(?:chats?|...)\b/i` matched it: the
 * first "find" followed, on the same line, by an "in my chats". That pattern searched the rest of the line once
 * per "find"; here the endings and line breaks are listed once and walked with the finds, in one pass.
 */
function findInHistory(text: string): { index: number, query: string } | undefined {
  const endings = Array.from(text.matchAll(IN_HISTORY), match => match.index)
  const breaks = Array.from(text.matchAll(LINE_BREAK), match => match.index)
  let ending = 0
  let lineBreak = 0
  for (const find of text.matchAll(FIND)) {
    const start = find.index + find[0].length
    while (ending < endings.length && endings[ending]! <= start) ending++
    if (ending === endings.length) return undefined
    while (lineBreak < breaks.length && breaks[lineBreak]! < start) lineBreak++
    if (lineBreak < breaks.length && breaks[lineBreak]! < endings[ending]!) continue
    return { index: find.index, query: text.slice(start, endings[ending]) }
  }
  return undefined
}

/**
 * The chat-history search the message asks for, and the text before it (which may ask for other tools).
 * Taken from the whole message, not from one clause, so "cats and dogs" stays one query.
 */
export function detectDemoSearch(text: string): { intent: DemoIntent, rest: string } | undefined {
  for (const find of [searchFor, findInHistory]) {
    const found = find(text)
    if (!found) continue
    const query = found.query
      .replace(/(?<![\s?!.])[\s?!.]+$/, '')
      .replace(/^["'“”‘’]+|(?<!["'“”‘’])["'“”‘’]+$/g, '')
      .trim()
    if (!query) continue
    return { intent: { toolName: 'search_chat_history', arguments: { query } }, rest: text.slice(0, found.index) }
  }
  return undefined
}
