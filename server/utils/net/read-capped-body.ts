import type { IncomingMessage } from 'node:http'
import { pipeline } from 'node:stream'
import type { Readable } from 'node:stream'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

/** A body read up to a cap. */
export interface CappedBody {
  bytes: Buffer
  /** True when the body went on past the cap and the rest was not read. */
  truncated: boolean
}

const DECOMPRESSORS: Record<string, () => NodeJS.ReadWriteStream> = {
  'gzip': createGunzip,
  'x-gzip': createGunzip,
  'deflate': createInflate,
  'br': createBrotliDecompress,
}

/**
 * Reads a response body, decompressed, up to `maxBytes` of decompressed data, then stops reading and closes the
 * connection. The cap counts what comes out of the decompressor, so a small compressed bomb cannot fill memory.
 * @throws Error for an encoding it cannot undo, or when the connection fails or is aborted mid-body
 */
export async function readCappedBody(response: IncomingMessage, maxBytes: number): Promise<CappedBody> {
  const encoding = String(response.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
  let body: Readable = response
  if (encoding !== 'identity' && encoding !== '') {
    const decompressor = DECOMPRESSORS[encoding]
    if (!decompressor) {
      response.destroy()
      throw new Error(`the page is sent with the "${encoding}" encoding, which cannot be read`)
    }
    // pipeline destroys both streams on an error, and the loop below then throws it
    body = pipeline(response, decompressor(), () => {}) as unknown as Readable
  }
  const chunks: Buffer[] = []
  let size = 0
  let truncated = false
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer
      if (size + buffer.length > maxBytes) {
        chunks.push(buffer.subarray(0, maxBytes - size))
        size = maxBytes
        truncated = true
        break
      }
      chunks.push(buffer)
      size += buffer.length
    }
  }
  finally {
    // leaving early (cap, error) must not keep the socket open
    response.destroy()
    if (body !== response) body.destroy()
  }
  return { bytes: Buffer.concat(chunks, size), truncated }
}

/**
 * Decodes a body as text in its declared charset: the Content-Type's `charset`, else an HTML `<meta charset>` in
 * the first kilobyte, else UTF-8. An unknown charset is read as UTF-8 rather than refused.
 */
export function decodeBody(bytes: Buffer, contentType: string): string {
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]
    ?? /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(bytes.subarray(0, 1024).toString('latin1'))?.[1]
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes)
  }
  catch {
    return new TextDecoder('utf-8').decode(bytes)
  }
}
