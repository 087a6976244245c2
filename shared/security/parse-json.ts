import { dropForbiddenKeys } from './forbidden-keys'

/**
 * Text that may name a forbidden key: the key itself, or a `\u` escape that could spell one. Only such text pays for
 * the reviver, which makes `JSON.parse` several times slower on the large, clean payloads the app mostly reads.
 */
const MAY_HOLD_FORBIDDEN_KEY = /__proto__|constructor|prototype|\\u/

/**
 * `JSON.parse` for input the app did not write itself (the model, a file, an MCP server, localStorage, another
 * tab): `__proto__`, `constructor` and `prototype` keys are dropped at every depth, so merging the result into an
 * object cannot reach a prototype. Throws `SyntaxError` like `JSON.parse`.
 */
export function parseJson(text: string): unknown {
  return MAY_HOLD_FORBIDDEN_KEY.test(text) ? JSON.parse(text, dropForbiddenKeys) : JSON.parse(text)
}

export type JsonParseResult = { ok: true, value: unknown } | { ok: false, error: string }

/** {@link parseJson} that never throws: the error is the parser's message (where the text stopped being JSON). */
export function tryParseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: parseJson(text) }
  }
  catch (error) {
    return { ok: false, error: (error as Error).message }
  }
}
