import { median } from './measure'

/** One side of a side-by-side comparison. */
export interface Contender {
  name: string
  run: () => unknown
  /**
   * Runs back to back in each slot, the time divided by it: a run of a few milliseconds is otherwise at the mercy of
   * one cache flush or one frequency step.
   * @default 1
   */
  repeat?: number
}

export interface InterleaveOptions {
  /**
   * Rounds; each runs every contender once, so a burst of load from elsewhere on the machine hits all of them alike.
   * @default 15
   */
  rounds?: number
  /**
   * Untimed rounds first (JIT, lazy imports, connection pools).
   * @default 3
   */
  warmup?: number
  /**
   * The contender the ratios divide by.
   * @default 0
   */
  baseline?: number
  /**
   * What a run costs: 'cpu' is this process's CPU time (user + system, every thread), which other processes on a
   * shared machine barely move, as long as the contender does all its work in this process (its loopback server
   * included); 'wall' is elapsed time, for work that waits on another process.
   * @default 'cpu'
   */
  clock?: 'cpu' | 'wall'
}

/** A contender's times over the rounds (ms on the chosen clock), and its time over the baseline's in the same round. */
export interface InterleavedTiming {
  name: string
  clock: 'cpu' | 'wall'
  times: number[]
  medianMs: number
  minMs: number
  maxMs: number
  /** Median of the per-round ratios to the baseline: less sensitive to load than a ratio of two medians. */
  ratio: number
  /** Quartiles and extremes of the per-round ratios: how far one round's verdict can be trusted. */
  ratioQ1: number
  ratioQ3: number
  ratioMin: number
  ratioMax: number
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

const gc = (globalThis as { gc?: () => void }).gc

/**
 * Times the contenders round by round (ABC, CBA, ABC... so none always runs right after another's garbage), with a
 * full GC before each timed run when Node runs with --expose-gc (`npm run bench` does), so one contender's garbage is
 * not collected on another's clock.
 */
export async function measureInterleaved(contenders: Contender[], options: InterleaveOptions = {}): Promise<InterleavedTiming[]> {
  const { rounds = 15, warmup = 3, baseline = 0, clock = 'cpu' } = options
  const now = clock === 'cpu' ? cpuMs : () => performance.now()
  const times: number[][] = contenders.map(() => [])
  for (let round = 0; round < warmup + rounds; round++) {
    const order = contenders.map((_, index) => index)
    if (round % 2 === 1) order.reverse()
    for (const index of order) {
      const { run, repeat = 1 } = contenders[index]!
      gc?.()
      const start = now()
      for (let time = 0; time < repeat; time++) await run()
      const elapsed = (now() - start) / repeat
      if (round >= warmup) times[index]!.push(elapsed)
    }
  }
  return contenders.map((contender, index) => {
    const ratios = times[index]!.map((time, round) => time / times[baseline]![round]!).sort((a, b) => a - b)
    return {
      name: contender.name,
      clock,
      times: times[index]!,
      medianMs: median(times[index]!),
      minMs: Math.min(...times[index]!),
      maxMs: Math.max(...times[index]!),
      ratio: median(ratios),
      ratioQ1: quantile(ratios, 0.25),
      ratioQ3: quantile(ratios, 0.75),
      ratioMin: ratios[0]!,
      ratioMax: ratios.at(-1)!,
    }
  })
}

/** `1.28x (IQR 1.21-1.35, range 1.10-1.62)`: a ratio with its spread, as the tables print it. */
export function formatRatio(timing: InterleavedTiming): string {
  return `${fixed(timing.ratio)}x (${formatSpread(timing)})`
}

/** `IQR 1.21-1.35, range 1.10-1.62`: the spread of the per-round ratios. */
export function formatSpread(timing: InterleavedTiming): string {
  return `IQR ${fixed(timing.ratioQ1)}-${fixed(timing.ratioQ3)}, range ${fixed(timing.ratioMin)}-${fixed(timing.ratioMax)}`
}

const fixed = (value: number) => value.toFixed(value >= 10 ? 1 : 2)

/** Linear interpolation between the closest ranks of a sorted list. */
function quantile(sorted: number[], q: number): number {
  const position = (sorted.length - 1) * q
  const below = Math.floor(position)
  const above = Math.min(sorted.length - 1, below + 1)
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below)
}
