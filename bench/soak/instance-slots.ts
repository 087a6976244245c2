// The soak's app instances: each slot is a port where `node .output/server/index.mjs` runs, SIGKILLed and started
// again there by the chaos, with its memory (VmRSS) sampled for each process it ran.
import { readFileSync } from 'node:fs'
import { freePort, startApp } from '../../tests/e2e/support/app-instance'
import type { AppInstance } from '../../tests/e2e/support/app-instance'

/** One process a slot ran, and its memory in MB. */
export interface ProcessMemory {
  pid: number
  startedAt: number
  /** RSS once it answered and handed out a session, before the soak's chats reach it (or the takeovers it starts with). */
  baselineMb: number
  /** RSS after the warm-up chats and a short idle (the first process of a slot only): what the soak's memory check compares with. */
  warmMb?: number
  peakMb: number
  /** RSS when the chats were over and the instance had idled (the last process of a slot only). */
  afterMb?: number
  /** RSS after the calm wave that follows (no kills) and the same idle: whether the chats' memory grows again. */
  afterCalmMb?: number
  killed: boolean
}

export interface InstanceSlot {
  name: string
  url: string
  /** The running instance, or undefined while it is down. */
  current: () => AppInstance | undefined
  processes: ProcessMemory[]
  /** What each process of the slot wrote to stdout and stderr, in order. */
  outputs: () => string[]
  kill: () => void
  restart: () => Promise<void>
  sample: () => void
  stop: () => Promise<void>
}

/** The process's resident memory (VmRSS) in MB, or undefined once it is gone. */
export function residentMb(pid: number): number | undefined {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024 || undefined
  }
  catch {
    return undefined
  }
}

async function waitForExit(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0)
    }
    catch {
      return
    }
    await new Promise(resolve => setTimeout(resolve, 50))
  }
}

/** Starts an instance on a free port with `env`; kill and restart keep the port, so readers find it again. */
export async function startSlot(name: string, env: Record<string, string>): Promise<InstanceSlot> {
  const port = await freePort()
  const processes: ProcessMemory[] = []
  let app: AppInstance | undefined
  const apps: AppInstance[] = []
  const launch = async () => {
    const started = await startApp(env, { port })
    processes.push({ pid: started.pid, startedAt: Date.now(), baselineMb: started.residentMb(), peakMb: started.residentMb(), killed: false })
    app = started
    apps.push(started)
  }
  await launch()
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    current: () => app,
    outputs: () => apps.map(item => item.output()),
    processes,
    kill() {
      if (!app) return
      process.kill(app.pid, 'SIGKILL')
      processes.at(-1)!.killed = true
      app = undefined
    },
    async restart() {
      await waitForExit(processes.at(-1)!.pid)
      await launch()
    },
    sample() {
      if (!app) return
      const rss = residentMb(app.pid)
      const last = processes.at(-1)!
      if (rss) last.peakMb = Math.max(last.peakMb, rss)
    },
    async stop() {
      await app?.stop()
      app = undefined
    },
  }
}
