/**
 * A run's share of its instance's concurrency (`NUXT_JOB_CONCURRENCY`). A chat that waits for a person (an approval,
 * or a tab running a browser-only tool) gives its slot back, so the instance runs other chats meanwhile, and takes
 * one again before it goes on.
 */
export interface JobSlot {
  /** Gives the slot back (no-op when not held). */
  release: () => void
  /**
   * Takes a slot again (no-op when held), ahead of jobs that have not started yet. Resolves without one when
   * `signal` aborts first (Stop, or the instance closes): the run then ends without holding a slot.
   */
  acquire: (signal?: AbortSignal) => Promise<void>
}

/** The instance's slots: who runs, who waits to start, who waits to go on. */
export interface JobSlotPool {
  /** Takes a free slot at once; false when none is free or a parked run waits for one (it goes first). */
  tryTake: () => boolean
  /** Waits for a slot to start a job; resolves false when `signal` aborts first. */
  take: (signal?: AbortSignal) => Promise<boolean>
  /** A handle on a slot the run holds now. `hooks` hear when it parks and unparks (BullMQ's own concurrency). */
  slotFor: (hooks?: JobSlotHooks) => JobSlot & { /** The run ended: its slot, if held, goes back. */ end: () => void }
  /** Slots held by running (not parked) runs. */
  readonly busy: number
}

export interface JobSlotHooks {
  onRelease?: () => void
  onAcquire?: () => void
}

/**
 * A pool of `limit` slots. Runs going on after a wait are served before jobs that have not started, so a chat
 * whose user answered does not queue behind every new one. `onFree` is told when a slot frees with nobody waiting.
 */
export function createJobSlotPool(limit: number, onFree?: () => void): JobSlotPool {
  let busy = 0
  const resuming: Array<() => void> = []
  const starting: Array<() => void> = []

  function give(): void {
    const next = resuming.shift() ?? starting.shift()
    if (next) return next()
    busy--
    onFree?.()
  }

  function wait(line: Array<() => void>, signal?: AbortSignal): Promise<boolean> {
    if (busy < limit && resuming.length === 0 && (line === resuming || starting.length === 0)) {
      busy++
      return Promise.resolve(true)
    }
    if (signal?.aborted) return Promise.resolve(false)
    return new Promise((resolve) => {
      const onAbort = () => {
        const at = line.indexOf(granted)
        if (at >= 0) line.splice(at, 1)
        resolve(false)
      }
      // The slot passes from the giver to this waiter: `busy` stays as it is.
      const granted = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve(true)
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      line.push(granted)
    })
  }

  return {
    tryTake() {
      if (busy >= limit || resuming.length > 0) return false
      busy++
      return true
    },
    take: signal => wait(starting, signal),
    slotFor(hooks = {}) {
      let held = true
      return {
        release() {
          if (!held) return
          held = false
          hooks.onRelease?.()
          give()
        },
        async acquire(signal) {
          if (held) return
          hooks.onAcquire?.()
          held = await wait(resuming, signal)
        },
        end() {
          if (held) give()
          held = false
        },
      }
    },
    get busy() {
      return busy
    },
  }
}
