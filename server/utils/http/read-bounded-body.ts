import type { H3Event } from 'h3'
import { formatBytes } from './request-limits'

/** The 413 error for a body over `limitBytes`. The connection is closed: the rest of the upload is not wanted. */
export function bodyTooLargeError(event: H3Event, limitBytes: number) {
  setResponseHeader(event, 'connection', 'close')
  return createError({
    statusCode: 413,
    statusMessage: 'Payload Too Large',
    message: `The request body is larger than this server accepts (${formatBytes(limitBytes)}). Start a new chat or send less.`,
  })
}

/**
 * Reads the request body as text, refusing it with 413 as soon as it passes `limitBytes`: a declared
 * Content-Length over the limit is refused before a byte is read, a chunked body is counted as it arrives and
 * dropped at the limit. Never buffers more than `limitBytes`.
 */
export async function readBoundedBody(event: H3Event, limitBytes: number): Promise<string> {
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
        // Stop reading; what is left of the upload is discarded by Node once the response is sent.
        request.pause()
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
      reject(createError({ statusCode: 400, statusMessage: 'Bad Request', message: `The request body could not be read: ${error.message}` }))
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
  return Buffer.concat(chunks, received).toString('utf8')
}

/**
 * The request body parsed as JSON, bounded like `readBoundedBody`. Malformed JSON is a 400 with the parser's
 * reason; an empty body is `undefined`.
 */
export async function readBoundedJson(event: H3Event, limitBytes: number): Promise<unknown> {
  const text = await readBoundedBody(event, limitBytes)
  if (!text.trim()) return undefined
  try {
    return JSON.parse(text)
  }
  catch (error) {
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: `The request body is not valid JSON: ${(error as Error).message}` })
  }
}
