import type { ServerResponse } from 'node:http'

/**
 * Resolves when `response` can take more bytes (or is gone): a relay awaits it after a `write` that returned false,
 * so the upstream is not read faster than the browser reads.
 */
export function responseDrained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done)
      response.off('close', done)
      resolve()
    }
    response.on('drain', done)
    response.on('close', done)
  })
}
