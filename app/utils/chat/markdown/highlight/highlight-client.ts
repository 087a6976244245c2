import type { HighlightRequest, HighlightResponse } from './highlight-messages'
import type { CodeToken } from './highlight-tokens'

/**
 * The page's side of the highlighting worker: one module worker for the page's life, started by the first block,
 * answering requests by id. Where there is no Worker (tests, old browsers) or the worker cannot start (a CSP
 * that refuses it), shiki runs in the page instead, lazily, as before the worker.
 */

let worker: Worker | null | undefined
let nextId = 1
const pending = new Map<number, { resolve: (tokens: CodeToken[][]) => void, reject: (error: Error) => void }>()

function startWorker(): Worker | null {
  if (worker !== undefined) return worker
  if (typeof Worker !== 'function' || typeof window === 'undefined') return (worker = null)
  try {
    worker = new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module', name: 'plugboard-highlight' })
  }
  catch {
    return (worker = null)
  }
  worker.addEventListener('message', (event: MessageEvent<HighlightResponse>) => {
    const request = pending.get(event.data.id)
    if (!request) return
    pending.delete(event.data.id)
    if ('tokens' in event.data) request.resolve(event.data.tokens)
    else request.reject(new Error(event.data.error))
  })
  // The worker did not load (or died): what it was asked is done in the page, and so is everything after.
  worker.addEventListener('error', () => {
    worker?.terminate()
    worker = null
    const waiting = [...pending.values()]
    pending.clear()
    for (const request of waiting) request.reject(new WorkerUnavailableError())
  })
  return worker
}

class WorkerUnavailableError extends Error {
  override readonly name = 'WorkerUnavailableError'
}

async function tokenizeInPage(code: string, language: string): Promise<CodeToken[][]> {
  const { tokenizeCode } = await import('./highlight-tokens')
  return tokenizeCode(code, language)
}

/** The tokens of `code` in `language` (a grammar id), made in the highlighting worker when there is one. */
export async function tokenizeInWorker(code: string, language: string): Promise<CodeToken[][]> {
  const thread = startWorker()
  if (!thread) return tokenizeInPage(code, language)
  const id = nextId++
  try {
    return await new Promise<CodeToken[][]>((resolve, reject) => {
      pending.set(id, { resolve, reject })
      thread.postMessage({ id, code, language } satisfies HighlightRequest)
    })
  }
  catch (error) {
    if (error instanceof WorkerUnavailableError) return tokenizeInPage(code, language)
    throw error
  }
}
