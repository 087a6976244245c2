import { Redis } from 'ioredis'

const clients = new Map<string, Redis>()

/**
 * This instance's one ioredis client for `url` (the job store and the rate limits share it), created on first
 * use. Commands wait in ioredis' offline queue while it (re)connects; callers that must not wait (rate limits)
 * check `client.status` themselves. Closed by `closeRedisClients()` on Nitro's 'close' hook.
 */
export function getRedisClient(url: string): Redis {
  let client = clients.get(url)
  if (!client) {
    client = new Redis(url, { connectionName: 'plugboard' })
    reportOutages(client, url)
    clients.set(url, client)
  }
  return client
}

/** Closes every client `getRedisClient` made (quit: replies already asked for still arrive). */
export async function closeRedisClients(): Promise<void> {
  const closing = [...clients.values()]
  clients.clear()
  await Promise.all(closing.map(client => client.quit().catch(() => client.disconnect())))
}

/** One line per outage, not one per reconnection attempt; without an 'error' listener ioredis prints its own. */
function reportOutages(client: Redis, url: string): void {
  let reported = false
  client.on('error', (error: Error) => {
    if (reported) return
    reported = true
    console.error(`[redis] ${redactUrl(url)}: ${error.message} (retrying in the background)`)
  })
  client.on('ready', () => { reported = false })
}

/** The URL without its password, for logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    return parsed.toString()
  }
  catch {
    return 'the configured Redis URL'
  }
}
