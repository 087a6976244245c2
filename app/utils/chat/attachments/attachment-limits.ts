/**
 * The limits on files sent with messages, all in one place. They are checked before anything is stored, and each
 * refusal names the file and the limit. An image is measured after it was resized (what is stored and sent).
 */

/** Most bytes one document may have. */
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024

/** Most bytes an image may have before resizing (a phone photo is well under). */
export const MAX_IMAGE_INPUT_BYTES = 40 * 1024 * 1024

/**
 * Most bytes an image may have after resizing. Every request of the chat carries it again as base64, and the
 * server's chat body limit bounds a request, so this stays well under that limit.
 */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024

/** The longest side of a stored image in pixels: more than models read, less than phone cameras take. */
export const MAX_IMAGE_SIDE = 2048

/** Images bigger than this are re-encoded (JPEG or WebP) even when they need no resizing. */
export const REENCODE_ABOVE_BYTES = 1024 * 1024

/** Most attachments one message may carry. */
export const MAX_ATTACHMENTS_PER_MESSAGE = 10

/**
 * Characters of an attached MCP resource sent inline with its message (every request of the chat carries them);
 * past it the text is cut with a note, and the whole stays searchable with search_documents.
 */
export const MAX_INLINE_RESOURCE_CHARS = 32_000

/** Most bytes of attachments one chat may keep. */
export const MAX_CHAT_ATTACHMENT_BYTES = 200 * 1024 * 1024

/** "2 MB", "16 KB", "512 bytes": sizes as people read them. */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`
  return `${bytes} bytes`
}
