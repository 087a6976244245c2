/**
 * Reasoning models served without a reasoning channel (DeepSeek-R1 or Qwen3 on Ollama, llama.cpp, vLLM...) write
 * their thinking into the content as `<think>…</think>` before the answer. This moves that block to reasoning, as
 * it arrives, so the UI can collapse it and the history sent back to the model leaves it out.
 *
 * Only a block at the very start of the reply counts (after white space): a `<think>` later in the text is the
 * model talking about the tag, and stays text.
 */
export interface ThinkTagSplitter {
  push: (delta: string) => { text: string, reasoning: string }
  /** The end of the reply: anything held back is released (an unclosed block stays reasoning). */
  flush: () => { text: string, reasoning: string }
}

const OPEN_TAGS = ['<think>', '<thinking>']
const CLOSE_TAGS: Record<string, string> = { '<think>': '</think>', '<thinking>': '</thinking>' }
/** What `trimStart` removes (JavaScript's white space and line terminators), read from a kept position. */
const LEADING_SPACE = /\s*/y

/** Creates a splitter for one reply. */
export function createThinkTagSplitter(): ThinkTagSplitter {
  let mode: 'undecided' | 'reasoning' | 'after-reasoning' | 'text' = 'undecided'
  let held = ''
  let closeTag = ''
  /** Leading white space of `held` already read while undecided: a long run of it is read once, not per delta. */
  let leadingSpace = 0

  function push(delta: string) {
    const out = { text: '', reasoning: '' }
    held += delta
    if (mode === 'undecided') {
      LEADING_SPACE.lastIndex = leadingSpace
      leadingSpace += LEADING_SPACE.exec(held)![0].length
      const start = held.slice(leadingSpace)
      const open = OPEN_TAGS.find(tag => start.startsWith(tag))
      if (open) {
        mode = 'reasoning'
        closeTag = CLOSE_TAGS[open]!
        held = start.slice(open.length)
      }
      else if (start === '' || OPEN_TAGS.some(tag => tag.startsWith(start))) {
        return out // could still become an opening tag
      }
      else {
        mode = 'text'
      }
    }
    if (mode === 'reasoning') {
      const end = held.indexOf(closeTag)
      if (end === -1) {
        // Keep back what could be the start of the closing tag.
        const keep = partialSuffixLength(held, closeTag)
        out.reasoning = held.slice(0, held.length - keep)
        held = held.slice(held.length - keep)
        return out
      }
      out.reasoning = held.slice(0, end)
      held = held.slice(end + closeTag.length)
      mode = 'after-reasoning'
    }
    if (mode === 'after-reasoning') {
      // The answer starts after the blank lines that follow the block.
      held = held.trimStart()
      if (!held) return out
      mode = 'text'
    }
    out.text = held
    held = ''
    return out
  }

  function flush() {
    const out = { text: '', reasoning: '' }
    if (mode === 'reasoning') out.reasoning = held
    else if (mode !== 'after-reasoning') out.text = held
    held = ''
    return out
  }

  return { push, flush }
}

/** Length of the longest suffix of `text` that is a proper prefix of `tag`. */
function partialSuffixLength(text: string, tag: string): number {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length--) {
    if (tag.startsWith(text.slice(text.length - length))) return length
  }
  return 0
}
