// An h3 app (the server Nitro uses) on a free loopback port, for route tests over real HTTP.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as h3 from 'h3'

export interface ListeningApp {
  /** `http://127.0.0.1:<port>` */
  base: string
  /** Drops open connections (streams included) and stops listening. */
  close: () => Promise<void>
}

/** Serves `app` on a free loopback port. */
export async function listenApp(app: h3.App): Promise<ListeningApp> {
  const server = createServer(h3.toNodeListener(app))
  await new Promise<void>(done => server.listen(0, '127.0.0.1', done))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections()
      await new Promise(done => server.close(done))
    },
  }
}
