import type { HighlightRequest, HighlightResponse } from './highlight-messages'
import type { CodeToken } from './highlight-tokens'
import { spawnHighlightWorker } from './spawn-highlight-worker'

/**
 * The page's side of the highlighting worker: one module worker for the page's life, started by the first block,
 * answering requests by id. shiki runs only there, never in the page: the build then holds one copy of its core and
 * grammars (Vite bundles a worker's imports apart from the page's, so code reachable from both ships twice). Every
 * browser the app runs in has module workers (the tool sandbox, user tools and PDF reading need them too) and the
 * CSP allows ours (`worker-src 'self'`); where there is none (the server, jsdom) code stays plain text.
 */

/** undefined: not started yet (or died; the next block starts a new one); null: no Web Worker here. */
let worker: Worker | null | undefined
/** Workers that failed to start or died; after MAX_FAILURES code stays plain for the page's life (a CSP that refuses it). */
let failures = 0
const MAX_FAILURES = 3
let nextId = 1
const pending = new Map<number, { resolve: (tokens: CodeToken[][]) => void, reject: (error: Error) => void }>()

function startWorker(): Worker | null {
  if (worker !== undefined) return worker
  const started = spawnHighlightWorker()
  if (!started) return (worker = null)
  started.onmessage = (event: MessageEvent<HighlightResponse>) => {
    const request = pending.get(event.data.id)
    if (!request) return
    pending.delete(event.data.id)
    if ('tokens' in event.data) request.resolve(event.data.tokens)
    else request.reject(new Error(event.data.error))
  }
  // The worker did not load (or died): what it was asked stays plain, and a later block tries a new worker.
  started.onerror = () => {
    started.terminate()
    if (worker === started) worker = ++failures < MAX_FAILURES ? undefined : null
    const waiting = [...pending.values()]
    pending.clear()
    for (const request of waiting) request.reject(new Error('The highlighting worker did not start'))
  }
  return (worker = started)
}

/** Whether code can be highlighted here (a Web Worker to do it). Starts the worker. */
export function canHighlightCode(): boolean {
  return startWorker() !== null
}

/** The tokens of `code` in `language` (a grammar id), made in the highlighting worker. */
export function tokenizeInWorker(code: string, language: string): Promise<CodeToken[][]> {
  const thread = startWorker()
  if (!thread) return Promise.reject(new Error('No Web Worker to highlight code in'))
  const id = nextId++
  return new Promise<CodeToken[][]>((resolve, reject) => {
    pending.set(id, { resolve, reject })
    thread.postMessage({ id, code, language } satisfies HighlightRequest)
  })
}
