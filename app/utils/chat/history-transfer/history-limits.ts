/**
 * What one import may hold. A real history is far below each cap (ten years of daily chats is ~4,000 chats); the
 * caps are there so a hostile or broken file is refused with a clear message before it fills the tab's memory or
 * the browser's storage.
 */

/** The largest file read: ChatGPT's `conversations.json` of a heavy user is 10–30 MB. */
export const HISTORY_IMPORT_MAX_BYTES = 50 * 1024 * 1024

/** Chats in one file. */
export const HISTORY_IMPORT_MAX_CHATS = 10_000

/** Messages in one file, all chats together. */
export const HISTORY_IMPORT_MAX_MESSAGES = 200_000

/** One text field (a message, a tool result): longer strings are refused, never cut (nothing received is lost). */
export const HISTORY_IMPORT_MAX_STRING_CHARS = 4 * 1024 * 1024

/** How deep a value of a field this app does not know (carried as it is) may nest. */
export const HISTORY_IMPORT_MAX_EXTRA_DEPTH = 32

/** Fields on one thread or message this app does not know, carried along for a later version that does. */
export const HISTORY_IMPORT_MAX_EXTRA_KEYS = 64
