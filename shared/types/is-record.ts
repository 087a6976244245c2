/** A JSON object: not null, not an array. What every guard on parsed JSON checks before reading keys. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
