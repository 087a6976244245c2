/**
 * @cfworker/json-schema checks `uniqueItems` by comparing every item with every other (n² deep comparisons): in
 * Node 20, 8,000 small objects took 20 s. A tool whose schema asks for unique items therefore gets arguments of
 * bounded comparison work, estimated before the validator runs.
 */

/**
 * Most comparison work accepted: longest array × number of values in the arguments, an upper bound on the values
 * the pairwise check visits. 2M is about 1,400 distinct numbers or 800 three-field objects, a tenth of a second.
 */
export const MAX_UNIQUE_ITEMS_WORK = 2_000_000

const schemasWithUniqueItems = new WeakMap<object, boolean>()

/** True when `uniqueItems: true` appears anywhere in the schema. Cached per schema object. */
export function schemaUsesUniqueItems(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false
  let uses = schemasWithUniqueItems.get(schema)
  if (uses === undefined) schemasWithUniqueItems.set(schema, uses = containsUniqueItems(schema))
  return uses
}

/**
 * Why the arguments are refused, or undefined when the validator's uniqueItems check is affordable on them.
 * Costs one walk over the arguments, only for schemas that use uniqueItems.
 */
export function refuseCostlyUniqueItems(schema: unknown, value: unknown): string | undefined {
  if (!schemaUsesUniqueItems(schema)) return undefined
  const { longestArray, values } = measure(value)
  if (longestArray * values <= MAX_UNIQUE_ITEMS_WORK) return undefined
  return `arguments are too large to check for duplicate items: an array of ${longestArray} items among ${values} values; `
    + 'send fewer items'
}

/** Walks the schema once (it is plain data: no cycles after structuredClone, but a visited set costs little). */
function containsUniqueItems(schema: object): boolean {
  const seen = new Set<object>()
  const stack: object[] = [schema]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (seen.has(node)) continue
    seen.add(node)
    for (const [key, child] of Object.entries(node)) {
      if (key === 'uniqueItems' && child === true) return true
      if (child !== null && typeof child === 'object') stack.push(child)
    }
  }
  return false
}

/** Longest array and number of values, in one walk (parsed arguments nest at most MAX_ARGUMENT_DEPTH levels). */
function measure(value: unknown): { longestArray: number, values: number } {
  let longestArray = 0
  let values = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const node = stack.pop()
    values++
    if (node === null || typeof node !== 'object') continue
    const children = Array.isArray(node) ? node : Object.values(node)
    if (Array.isArray(node)) longestArray = Math.max(longestArray, node.length)
    for (const child of children) stack.push(child)
  }
  return { longestArray, values }
}
