/** Bounds of the sync protocol, shared so the browser batches within what the server accepts. */

/** Changes in one push. */
export const MAX_CHANGES_PER_PUSH = 500
/** Bytes of one push request's JSON body. */
export const MAX_PUSH_BYTES = 4 * 1024 * 1024
/** Bytes of one record's body as JSON (a message with a long tool result, an MCP app's HTML). */
export const MAX_RECORD_BYTES = 1024 * 1024
/** Characters of a record id. */
export const MAX_ID_LENGTH = 128
/** Changes in one pull page. */
export const MAX_CHANGES_PER_PULL = 2000
/** Bytes of one pull page's bodies: a page stops early past this. */
export const MAX_PULL_BYTES = 4 * 1024 * 1024
/** Bytes of one synced attachment: the largest file the composer accepts. */
export const MAX_BLOB_BYTES = 20 * 1024 * 1024
/** Bytes of attachments one account may keep on the server. */
export const MAX_ACCOUNT_BLOB_BYTES = 256 * 1024 * 1024
