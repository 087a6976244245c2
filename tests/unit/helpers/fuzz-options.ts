import type { Parameters } from 'fast-check'

/**
 * Options for fast-check's `assert`: a fixed seed, so a run is repeatable and a failure names its case, unless
 * FUZZ_SEED asks for another (a number) or for a fresh one each run (`random`), to explore further.
 */
export function fuzzOptions<T>(numRuns: number): Parameters<T> {
  const seed = process.env.FUZZ_SEED
  if (seed === 'random') return { numRuns }
  return { numRuns, seed: seed ? Number(seed) : 2026_11_26 }
}
