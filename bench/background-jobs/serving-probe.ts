// The serving side of the background-jobs bench: while an instance runs chats, the coordinator asks that instance's
// main thread for a small API route, one request at a time with a short gap, and keeps each answer's latency.
import { Agent, get } from 'node:http'

export interface ServingProbe {
  /** Keeps latencies from now on (the chats are running). */
  resume: () => void
  /** Stops keeping them (the chats wait, e.g. while memory is measured). */
  pause: () => void
  /** Ends the probe; the latencies kept, sorted. */
  stop: () => Promise<number[]>
  /** Requests that failed so far. */
  readonly failures: number
}

export function startServingProbe(url: string, gapMs = 5): ServingProbe {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const latencies: number[] = []
  let keeping = false
  let stopped = false
  const once = () => new Promise<number>((resolve, reject) => {
    const started = performance.now()
    get(url, { agent }, (response) => {
      response.resume()
      response.on('end', () => resolve(performance.now() - started))
    }).on('error', reject)
  })
  let failures = 0
  const loop = (async () => {
    while (!stopped) {
      const wasKeeping = keeping
      // A refused or reset request counts as a failure, not a latency (the probe goes on).
      const latency = await once().catch(() => (failures++, undefined))
      if (wasKeeping && keeping && latency !== undefined) latencies.push(latency)
      await new Promise(resolve => setTimeout(resolve, gapMs))
    }
  })()
  return {
    resume: () => { keeping = true },
    pause: () => { keeping = false },
    async stop() {
      stopped = true
      await loop
      agent.destroy()
      return latencies.sort((a, b) => a - b)
    },
    get failures() { return failures },
  }
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

export function median(values: number[]): number {
  return percentile([...values].sort((a, b) => a - b), 50)
}

/** "median (min–max)" of one figure over repetitions. */
export function spread(values: number[], digits = 1): string {
  const sorted = [...values].sort((a, b) => a - b)
  return `${median(sorted).toFixed(digits)} (${sorted[0]!.toFixed(digits)}–${sorted.at(-1)!.toFixed(digits)})`
}
