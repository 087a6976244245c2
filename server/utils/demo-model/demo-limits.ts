/**
 * How much of a request the demo model looks at. The body limit and the count caps (server/utils/http) bound the
 * request; these bound the script's own work and output, so that even the largest accepted request is answered
 * at once and its reply stays a reply, not a flood.
 */

/**
 * Characters of the last user message that intent matching reads ("what is 12*7", "call slow_tool {...}").
 * Every prompt the script understands is a sentence or two; text past this is pasted material it would not act on.
 */
export const DEMO_PROMPT_WINDOW_CHARS = 8 * 1024

/** Most tool calls the demo model makes in one reply, and most tool results it answers at once. */
export const DEMO_MAX_TOOL_CALLS = 16

/** Longest argument text (an expression, a query) that the final answer quotes back before cutting it with "…". */
export const DEMO_MAX_QUOTED_CHARS = 200
