import { codedTextOfBody } from '#shared/errors/coded-text'
import type { CodedText } from '#shared/errors/coded-text'
import { SHARE_SNAPSHOT_LIMIT_BYTES } from '#shared/share/share-constants'
import type { CreatedShareLink, ShareLinkSummary, SharedChat, ShareSnapshot } from '#shared/share/share-snapshot'

/** A refusal of the share routes, with the server's sentence and status. */
export class ShareLinkError extends Error {
  /** The server's sentence as a code, for the user's language (absent from an older server or a proxy's page). */
  constructor(message: string, readonly status: number, readonly text?: CodedText) {
    super(message)
    this.name = 'ShareLinkError'
  }
}

async function refusal(response: Response, fallback: string): Promise<ShareLinkError> {
  const body = await response.json().catch(() => undefined) as { message?: unknown } | undefined
  const message = typeof body?.message === 'string' && body.message ? body.message : fallback
  return new ShareLinkError(message, response.status, codedTextOfBody(body))
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
}

/** Uploads a snapshot and returns its link; a snapshot over the cap is refused here, before a byte is sent. */
export async function createShareLink(snapshot: ShareSnapshot): Promise<CreatedShareLink> {
  const body = JSON.stringify({ snapshot })
  const bytes = new TextEncoder().encode(body).length
  if (bytes > SHARE_SNAPSHOT_LIMIT_BYTES) {
    throw new ShareLinkError(`This chat is too large to share (${megabytes(bytes)}; a shared chat may take at most ${megabytes(SHARE_SNAPSHOT_LIMIT_BYTES)}). Share a shorter branch, or one with fewer images.`, 413)
  }
  const response = await fetch('/api/share-links', { method: 'POST', headers: { 'content-type': 'application/json' }, body })
  if (!response.ok) throw await refusal(response, `Could not share this chat (HTTP ${response.status}).`)
  return await response.json() as CreatedShareLink
}

/** This browser's shared links, newest first. */
export async function listShareLinks(): Promise<ShareLinkSummary[]> {
  const response = await fetch('/api/share-links')
  if (!response.ok) throw await refusal(response, `Could not read your shared links (HTTP ${response.status}).`)
  return ((await response.json()) as { links: ShareLinkSummary[] }).links
}

/** Revokes one of this browser's links: its page says "revoked" from now on. */
export async function revokeShareLink(id: string): Promise<void> {
  const response = await fetch(`/api/share-links/${encodeURIComponent(id)}`, { method: 'DELETE' })
  if (!response.ok) throw await refusal(response, `Could not revoke the link (HTTP ${response.status}).`)
}

/** The shared chat at `token`; a ShareLinkError with status 404 or 410 when there is none or it was revoked. */
export async function fetchSharedChat(token: string): Promise<SharedChat> {
  const response = await fetch(`/api/shared/${encodeURIComponent(token)}`)
  if (!response.ok) throw await refusal(response, `Could not open this shared chat (HTTP ${response.status}).`)
  return await response.json() as SharedChat
}

/** The full address of a link's page on this site. */
export function shareLinkUrl(path: string, origin = window.location.origin): string {
  return new URL(path, origin).toString()
}
