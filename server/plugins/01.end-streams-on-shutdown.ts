import { endHeldStreams } from '../utils/http/held-streams'

/**
 * On SIGTERM or SIGINT, the held event streams end first: Nitro's graceful shutdown (registered after the plugins,
 * so this runs before it) then finds no open stream to wait for. Alone (NITRO_SHUTDOWN_DISABLED), the signal is raised
 * again, so the process still ends as it would have.
 */
export default defineNitroPlugin(() => {
  if (import.meta.dev) return
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      endHeldStreams()
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
    })
  }
})
