import { answerHighlightRequest } from '~/utils/chat/markdown/highlight/highlight-worker-handler'
import type { HighlightRequest, HighlightResponse } from '~/utils/chat/markdown/highlight/highlight-messages'

/**
 * The highlighting worker for tests: jsdom has no Web Worker, so the worker's own handler answers in-process
 * through the same message shape (shiki runs in Node as it does in the worker). `requests` counts what the page asked.
 */
export function spawnInProcessHighlightWorker(): Worker & { requests: number } {
  const worker = {
    onmessage: null as ((event: MessageEvent<HighlightResponse>) => void) | null,
    onerror: null,
    requests: 0,
    terminated: false,
    postMessage(request: HighlightRequest) {
      worker.requests++
      void answerHighlightRequest(request).then((data) => {
        if (!worker.terminated) worker.onmessage?.({ data } as MessageEvent<HighlightResponse>)
      })
    },
    terminate() {
      worker.terminated = true
    },
  }
  return worker as unknown as Worker & { requests: number }
}
