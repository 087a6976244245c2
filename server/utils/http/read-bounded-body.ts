import { parseJson } from '#shared/security/parse-json'
import type { H3Event } from 'h3'
import { formatBytes } from './request-limits'
import { serverText } from '#shared/errors/server-messages'
import { codedError, userError } from './user-error'

/** After refusing an upload, how long the server goes on reading (and dropping) it before closing the connection. */
export const LINGER_MS = 2000
/** ... and how much of it at most. */
export const LINGER_BYTES = 16 * 1024 * 1024

/**
 * Closes the connection of a refused upload without losing the refusal. Closing a socket whose upload is still
 * arriving resets the connection, and a client still sending then loses the answer it had not read yet (fetch reported
 * `write EPIPE` instead of the 413). So, as web servers do ("lingering close"): once the answer is sent, the server
 * ends its side, reads and drops what still arrives for at most LINGER_MS and LINGER_BYTES, then closes. Nothing is
 * kept in memory, and a client that goes on sending is cut off at those bounds.
 */
function closeAfterAnswer(event: H3Event): void {
  const { req, res } = event.node
  const socket = req.socket
  if (!socket || (req as { __lingering?: boolean }).__lingering) return
  ;(req as { __lingering?: boolean }).__lingering = true
  let dropped = 0
  const drop = (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > LINGER_BYTES) socket.destroy()
  }
  req.on('data', drop)
  req.resume()
  res.once('finish', () => {
    socket.end()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref?.()
    socket.once('close', () => clearTimeout(timer))
    req.once('end', () => socket.destroy())
  })
  res.once('close', () => {
    if (!res.writableFinished) socket.destroy()
  })
}

/**
 * The 413 error for a body over `limitBytes`. The rest of the upload is not wanted: the connection is closed once the
 * answer is sent (`closeAfterAnswer`). `said` (a sentence, or a coded one) replaces the general one.
 */
export function bodyTooLargeError(event: H3Event, limitBytes: number, said?: string | { message: string, code: string, params: Record<string, string | number> }) {
  closeAfterAnswer(event)
  if (typeof said === 'string') return createError({ statusCode: 413, statusMessage: 'Payload Too Large', message: said })
  return codedError(413, 'Payload Too Large', said ?? serverText('server.body.tooLarge', { size: formatBytes(limitBytes) }))
}

/**
 * Reads the request body as text, refusing it with 413 as soon as it passes `limitBytes`: a declared
 * Content-Length over the limit is refused before a byte is read, a chunked body is counted as it arrives and
 * dropped at the limit. Never buffers more than `limitBytes`.
 */
export async function readBoundedBody(event: H3Event, limitBytes: number): Promise<string> {
  return (await readBoundedBytes(event, limitBytes)).toString('utf8')
}

/** The request body as bytes (an uploaded file), bounded like `readBoundedBody`. */
export async function readBoundedBytes(event: H3Event, limitBytes: number): Promise<Buffer> {
  const declared = Number(getRequestHeader(event, 'content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > limitBytes) throw bodyTooLargeError(event, limitBytes)
  const request = event.node.req
  const chunks: Buffer[] = []
  let received = 0
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received > limitBytes) {
        cleanup()
        // What is left of the upload is read and dropped until the connection closes (`closeAfterAnswer`).
        reject(bodyTooLargeError(event, limitBytes))
        return
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      cleanup()
      resolve()
    }
    const onError = (error: Error) => {
      cleanup()
      reject(userError(400, 'Bad Request', 'server.body.unreadable', { reason: error.message }))
    }
    const cleanup = () => {
      request.off('data', onData)
      request.off('end', onEnd)
      request.off('error', onError)
    }
    request.on('data', onData)
    request.on('end', onEnd)
    request.on('error', onError)
  })
  return Buffer.concat(chunks, received)
}

/**
 * The request body parsed as JSON, bounded like `readBoundedBody`. Malformed JSON is a 400 with the parser's
 * reason; an empty body is `undefined`.
 */
export async function readBoundedJson(event: H3Event, limitBytes: number): Promise<unknown> {
  const text = await readBoundedBody(event, limitBytes)
  if (!text.trim()) return undefined
  try {
    return parseJson(text)
  }
  catch (error) {
    throw userError(400, 'Bad Request', 'server.body.notJson', { reason: (error as Error).message })
  }
}
