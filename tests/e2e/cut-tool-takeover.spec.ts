import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from './support/own-upstream'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'
import { freePort, startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { redisInstanceEnv } from './support/redis-instances'
import { startRedisServer } from '../unit/helpers/redis-server'
import type { RedisServer } from '../unit/helpers/redis-server'

// A background chat on Redis whose instance is killed (SIGKILL) while fetch_web_page (a tool that acts outside the
// app) waits for its page. The instance started again in its place takes the chat over: it does not fetch the page a
// second time, the card says the tool may or may not have completed, and the reply goes on and ends.
let redis: RedisServer
let pages: Server
let host = ''
const fetched: string[] = []
const held: ServerResponse[] = []
const apps: AppInstance[] = []

function env(redisUrl: string, upstreamUrl: string): Record<string, string> {
  return redisInstanceEnv(redisUrl, { NUXT_OPENROUTER_BASE_URL: `${upstreamUrl}/api/v1`, NUXT_PUBLIC_DEFAULT_MODEL: 'fake/fetch-page', NUXT_FETCH_ALLOWED_HOSTS: host })
}

test.beforeAll(async () => {
  redis = await startRedisServer()
  // The page never answers: the tool is still running when its instance dies.
  pages = createServer((request: IncomingMessage, response: ServerResponse) => {
    fetched.push(request.url ?? '')
    if (request.url === '/slow') return held.push(response)
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end('<html><body><main><p>Otters hold hands.</p></main></body></html>')
  })
  await new Promise<void>(done => pages.listen(0, '127.0.0.1', done))
  host = `127.0.0.1:${(pages.address() as AddressInfo).port}`
})

test.afterAll(async () => {
  for (const app of apps) await app.stop()
  pages?.closeAllConnections()
  await new Promise(done => pages?.close(done))
  await redis?.stop()
})

test('a tool that acts outside the app, cut by its instance dying, is not run again and its card says so', async ({ page, upstream }) => {
  test.setTimeout(90_000)
  await upstream.clear()
  const port = await freePort()
  const a = await startApp(env(redis.url, upstream.url), { port })
  apps.push(a)
  await openAppWith(page, { provider: openRouterProvider('fake/fetch-page'), runOnServer: true, toolStates: { fetch_web_page: true } }, a.url)

  await sendMessage(page, `Read http://${host}/slow for me`)
  const card = page.locator('[data-testid="tool-card"][data-tool="fetch_web_page"]').last()
  await expect(card).toHaveAttribute('data-status', 'awaiting-approval', { timeout: 15_000 })
  await card.getByRole('button', { name: 'Allow once' }).click()
  await expect(card).toHaveAttribute('data-status', 'running', { timeout: 15_000 })
  await expect.poll(() => fetched.length, { timeout: 15_000 }).toBe(1)

  // The instance running the tool dies; another starts where the page points and takes the chat over.
  process.kill(a.pid, 'SIGKILL')
  apps.splice(apps.indexOf(a), 1)
  const restarted = await startApp(env(redis.url, upstream.url), { port })
  apps.push(restarted)

  await expect(card).toHaveAttribute('data-status', 'error', { timeout: 45_000 })
  await expect(card).toContainText('The server stopped while this tool ran; it may or may not have completed.')
  await waitForIdle(page)
  await expect(lastAssistant(page)).toContainText('I read the page.')
  expect(fetched).toEqual(['/slow'])
  // The model was asked for the step with the call once, and then got the interrupted result (not a second call).
  const requests = await upstream.requests()
  expect(requests).toHaveLength(2)
  const history = requests[1]!.body.messages as Array<{ role: string, content: string | null }>
  expect(history.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('may or may not have completed') })

  // A reload shows the same card.
  await page.reload()
  await openApp(page, page.url())
  await expect(page.locator('[data-testid="tool-card"][data-tool="fetch_web_page"]').last()).toHaveAttribute('data-status', 'error')
})

test('an approval answered on the instance that runs the chat: bad edited arguments get 400, then a good answer runs it', async ({ upstream }) => {
  test.setTimeout(60_000)
  fetched.length = 0
  // This instance alone on the Redis: it runs the chat and holds the call.
  for (const other of apps.splice(0)) await other.stop()
  const app = await startApp(env(redis.url, upstream.url))
  apps.push(app)
  const started = await app.fetchWithSession('/api/chats', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ threadId: 'approval-thread', model: 'fake/fetch-page', messages: [{ role: 'user', content: `Read http://${host}/otters` }], serverTools: ['fetch_web_page'] }),
  })
  expect(started.status).toBe(201)
  const { id } = await started.json() as { id: string }
  const eventsOf = async () => {
    const response = await app.fetchWithSession(`/api/chats/${id}/events?after=0`, { headers: { accept: 'text/event-stream' } })
    const reader = response.body!.getReader()
    let text = ''
    const deadline = Date.now() + 1000
    while (Date.now() < deadline) {
      const { done, value } = await Promise.race([reader.read(), new Promise<{ done: true, value: undefined }>(resolve => setTimeout(() => resolve({ done: true, value: undefined }), 300))])
      if (done) break
      text += new TextDecoder().decode(value)
    }
    await reader.cancel()
    return text
  }
  await expect.poll(eventsOf, { timeout: 20_000 }).toContain('tool-call-awaiting-approval')
  const callId = /"callId":"([^"]+)"|"call":\{"id":"([^"]+)"/.exec(await eventsOf())!.slice(1).find(Boolean)!

  const answer = (body: object) => app.fetchWithSession(`/api/chats/${id}/approvals`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ callId, ...body }) })
  const refused = await answer({ decision: 'allowed-once', arguments: '{"url": 5}' })
  expect(refused.status).toBe(400)
  expect((await refused.json() as { message: string }).message).toMatch(/edited arguments cannot be used/i)
  expect(fetched).toEqual([])

  expect((await answer({ decision: 'allowed-once' })).status).toBe(200)
  await expect.poll(async () => (await (await app.fetchWithSession(`/api/chats/${id}`)).json() as { status: string }).status, { timeout: 20_000 }).toBe('done')
  expect(fetched).toEqual(['/otters'])
})
