/**
 * Keys that must never reach a handler or a stored object from untrusted JSON (the model, a file, an MCP server,
 * the user): merging them into an object can pollute prototypes.
 */
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

export function isForbiddenKey(key: string): boolean {
  return FORBIDDEN_JSON_KEYS.has(key)
}

/** A `JSON.parse` reviver that drops the forbidden keys at every depth. */
export function dropForbiddenKeys(key: string, value: unknown): unknown {
  return FORBIDDEN_JSON_KEYS.has(key) ? undefined : value
}
