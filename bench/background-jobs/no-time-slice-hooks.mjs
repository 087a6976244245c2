// Module hooks for the serving comparison's variants without the runner time slice: whoever imports
// runner-time-slice.ts gets no-time-slice.ts, whose yieldToServing goes on at once. The server is not changed.
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context)
  if (resolved.url.endsWith('/runner-time-slice.ts')) return { ...resolved, url: new URL('./no-time-slice.ts', import.meta.url).href }
  return resolved
}
