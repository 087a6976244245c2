import { encodeDemoFrame } from './demo-frames'
import type { DemoFrame } from './demo-frames'

/** Options of `createDemoSseStream`. */
export interface DemoSseStreamOptions {
  /** Pause before each frame after the first, in ms. @default 12 */
  delayMs?: number
  /** Aborted when the client disconnects: the stream closes and nothing more is written. */
  signal?: AbortSignal
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done, { once: true })
  })
}

/**
 * The frames as an SSE byte stream, one frame per chunk with a pause between them so the reply visibly
 * streams. Pull-based: a slow reader slows the model, and an abort ends the stream at the next frame.
 */
export function createDemoSseStream(frames: readonly DemoFrame[], options: DemoSseStreamOptions = {}): ReadableStream<Uint8Array> {
  const { delayMs = 12, signal } = options
  const encoder = new TextEncoder()
  let next = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next > 0) await pause(delayMs, signal)
      if (signal?.aborted || next >= frames.length) {
        controller.close()
        return
      }
      controller.enqueue(encoder.encode(encodeDemoFrame(frames[next++]!)))
    },
  }, { highWaterMark: 0 })
}
