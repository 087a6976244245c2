// The /api/tools route files on h3 (the server Nitro uses) with Nitro's auto-imports as globals, over real HTTP,
// as tests/unit/server-routes.test.ts does for the other routes. The session guard is not mounted here: the e2e
// spec checks it on the built app.
import * as h3 from 'h3'
import { listenApp } from './listen-app'
import type { ListeningApp } from './listen-app'

export type { ListeningApp as ToolRoutesServer } from './listen-app'

/** Starts the two routes on a free loopback port. */
export async function startToolRoutesServer(): Promise<ListeningApp> {
  for (const name of ['defineEventHandler', 'createError', 'getRouterParam', 'getRequestHeader', 'setResponseHeader', 'setResponseStatus'] as const) {
    (globalThis as Record<string, unknown>)[name] = h3[name]
  }
  const app = h3.createApp()
  const router = h3.createRouter()
  router.get('/api/tools', (await import('~~/server/api/tools/index.get')).default)
  router.post('/api/tools/:name/execute', (await import('~~/server/api/tools/[name]/execute.post')).default)
  app.use(router)
  return listenApp(app)
}
