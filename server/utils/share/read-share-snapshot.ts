import type { H3Event } from 'h3'
import { SHARE_BODY_LIMIT_BYTES, SHARE_SNAPSHOT_LIMIT_BYTES, SHARE_TOO_LARGE_MESSAGE, shareSnapshotSchema } from '#shared/share/share-snapshot'
import type { ShareSnapshot } from '#shared/share/share-snapshot'
import { tryParseJson } from '#shared/security/parse-json'
import { readBoundedBody } from '../http/read-bounded-body'

function tooLarge(): Error {
  return createError({ statusCode: 413, statusMessage: 'Payload Too Large', message: SHARE_TOO_LARGE_MESSAGE })
}

/**
 * Reads `{ snapshot }` from the request, bounded by the snapshot cap, and checks the snapshot whole: 413 past the
 * cap, 400 with the first problem in words. Returns it with its size in bytes.
 */
export async function readShareSnapshot(event: H3Event): Promise<{ snapshot: ShareSnapshot, bytes: number }> {
  let text: string
  try {
    text = await readBoundedBody(event, SHARE_BODY_LIMIT_BYTES)
  }
  catch (error) {
    if ((error as { statusCode?: number }).statusCode === 413) throw tooLarge()
    throw error
  }
  const body = tryParseJson(text)
  if (!body.ok) throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The shared chat is not JSON.' })
  const parsed = shareSnapshotSchema.safeParse((body.value as { snapshot?: unknown } | null)?.snapshot)
  if (!parsed.success) {
    const first = parsed.error.issues[0]
    const where = first?.path.length ? ` (${first.path.join('.')})` : ''
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: `Invalid shared chat: ${first?.message ?? 'bad body'}${where}` })
  }
  const bytes = Buffer.byteLength(JSON.stringify(parsed.data))
  if (bytes > SHARE_SNAPSHOT_LIMIT_BYTES) throw tooLarge()
  return { snapshot: parsed.data, bytes }
}
