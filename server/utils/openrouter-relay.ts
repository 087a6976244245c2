import type { ServerResponse } from 'node:http'
import { createParser } from 'eventsource-parser'
import { responseDrained } from './http/response-drained'

/** Options of relayUpstreamStream. */
export interface RelayOptions {
  /** Longest wait for the next bytes from the upstream before the reply is ended with an error. */
  idleTimeoutMs: number
  /** Aborted when the browser went away: the relay stops quietly. */
  signal: AbortSignal
  /** Check the bytes as an SSE stream of JSON chunks, and end with an SSE error frame on a fault. @default true */
  eventStream?: boolean
  /** Called with the reason of a fault, for the server log. */
  onFault?: (reason: string) => void
}

/** Bytes that may pass without a single SSE event before the stream is called garbage. */
const MAX_BYTES_WITHOUT_EVENT = 256 * 1024

/** The SSE frame that ends a stream the upstream broke: the browser's stream reader turns it into an error with Retry. */
export function sseErrorFrame(message: string, code = 502): string {
  return `data: ${JSON.stringify({ error: { message, code } })}\n\n`
}

class RelayFault extends Error {}

function readWithin<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RelayFault(`the model provider sent nothing for ${Math.round(ms / 1000)} s`)), ms)
  })
  return Promise.race([read, timeout]).finally(() => clearTimeout(timer))
}


/**
 * Copies an upstream body to the browser's response and ends it, whatever the upstream does: a reset, a stall
 * longer than `idleTimeoutMs` or bytes that are not an SSE stream of JSON end the reply at once with an error
 * frame the UI shows with Retry. Reads only as fast as the browser takes the bytes, so a slow reader cannot make
 * the server buffer without bound.
 */
export async function relayUpstreamStream(body: ReadableStream<Uint8Array>, response: ServerResponse, options: RelayOptions): Promise<void> {
  const { idleTimeoutMs, signal, eventStream = true, onFault } = options
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let bytesWithoutEvent = 0
  let garbage: string | undefined
  const parser = createParser({
    onEvent(event) {
      bytesWithoutEvent = 0
      if (event.data === '[DONE]' || garbage) return
      try {
        JSON.parse(event.data)
      }
      catch {
        garbage = `the model provider sent data that is not JSON (${JSON.stringify(event.data.slice(0, 60))})`
      }
    },
    onComment() {
      bytesWithoutEvent = 0
    },
  })
  try {
    for (;;) {
      const { done, value } = await readWithin(reader.read(), idleTimeoutMs)
      if (done) break
      if (eventStream) {
        bytesWithoutEvent += value.byteLength
        parser.feed(decoder.decode(value, { stream: true }))
        if (!garbage && bytesWithoutEvent > MAX_BYTES_WITHOUT_EVENT) garbage = 'the model provider sent bytes that are not an event stream'
      }
      if (signal.aborted) return
      if (!response.write(value)) await responseDrained(response)
      if (garbage) throw new RelayFault(garbage)
    }
    response.end()
  }
  catch (error) {
    reader.cancel().catch(() => {})
    if (signal.aborted || response.destroyed) return
    const reason = error instanceof RelayFault ? error.message : `the connection to the model provider broke (${describeCause(error)})`
    onFault?.(reason)
    if (!eventStream) {
      response.destroy()
      return
    }
    response.end(sseErrorFrame(`The reply stopped: ${reason}. Try again.`))
  }
}

function describeCause(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause
  if (typeof cause?.code === 'string') return cause.code
  if (error instanceof Error && error.message) return error.message.slice(0, 120)
  return 'unknown error'
}
