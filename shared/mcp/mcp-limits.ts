/** What one MCP server may hand the app. A server is someone else's code: everything it sends is bounded. */

/** Tools kept per server; the rest are skipped with a message (OpenAI accepts 128 tools per request). */
export const MAX_MCP_TOOLS = 128
/** Pages of `tools/list` read at most (a server that pages forever is cut off). */
export const MAX_MCP_LIST_PAGES = 20
/** Most tools listed in all pages together before the listing stops reading. */
export const MAX_MCP_LISTED_TOOLS = 10_000
/** Largest input schema kept, as JSON text. */
export const MAX_MCP_SCHEMA_CHARS = 32 * 1024
/** Deepest nesting of an input schema kept. */
export const MAX_MCP_SCHEMA_DEPTH = 32
/** Longest tool description passed to the model; longer ones are cut. */
export const MAX_MCP_DESCRIPTION_CHARS = 2_000
/** Longest text of one call's result; the executor then cuts what the model reads. */
export const MAX_MCP_RESULT_CHARS = 1024 * 1024
/** Largest image (base64 characters) shown on a tool card. */
export const MAX_MCP_IMAGE_CHARS = 2 * 1024 * 1024
/** Servers one browser or one operator may configure. */
export const MAX_MCP_SERVERS = 16
/** Largest `requestedSchema` of an elicitation shown as a form, as JSON text; a larger one is declined. */
export const MAX_ELICITATION_SCHEMA_CHARS = 16 * 1024
/** Most fields of one elicitation form. */
export const MAX_ELICITATION_FIELDS = 32
/** Most choices of one select field. */
export const MAX_ELICITATION_OPTIONS = 100
/** Longest text one field takes, whatever the schema's maxLength says. */
export const MAX_ELICITATION_TEXT_CHARS = 10_000
/** Longest message of an elicitation shown (the rest is cut). */
export const MAX_ELICITATION_MESSAGE_CHARS = 2_000
/** An MCP call that has sent nothing (result, progress) for this long and waits for no answer of the user fails. */
export const MCP_CALL_IDLE_TIMEOUT_MS = 60_000
/** Longest an MCP call may run however often it reports progress or asks the user. */
export const MCP_CALL_MAX_MS = 15 * 60_000
/** Prompts offered per server as slash commands. */
export const MAX_MCP_PROMPTS = 128
/** Arguments of one prompt; a prompt with more is not offered. */
export const MAX_MCP_PROMPT_ARGUMENTS = 32
/** Longest text a prompt puts in the composer's message. */
export const MAX_MCP_PROMPT_TEXT_CHARS = 100_000
/** Resources of one server listed in the picker. */
export const MAX_MCP_RESOURCES = 500
/** Longest text of one resource attached to a message. */
export const MAX_MCP_RESOURCE_TEXT_CHARS = 1024 * 1024
