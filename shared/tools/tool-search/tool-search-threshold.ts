/**
 * More enabled tools than this and a request offers the always-on ones plus `find_tools`: past a few dozen
 * definitions they cost more tokens than the conversation, and models pick worse among them. In a file of its own
 * so the app reads it without loading the search index.
 */
export const DEFAULT_TOOL_SEARCH_THRESHOLD = 32
