import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, newAppContext, openApp, PROXY_APP_URL, waitForIdle } from './helpers'

// Background workflows on the build with the server's key (pointed at the fake OpenRouter): saved recipes per
// browser session, run as background chats whose chat opens in the browser like any server-run chat.
test.use({ baseURL: PROXY_APP_URL })

/** A fetch from the page (its session cookie, its origin), answering status and JSON body. */
function api(page: Page, path: string, method = 'GET', body?: unknown): Promise<{ status: number, body: any }> {
  return page.evaluate(async ({ path, method, body }) => {
    const response = await fetch(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) })
    return { status: response.status, body: await response.json().catch(() => null) }
  }, { path, method, body })
}

test('the workflow routes are validated, bounded and bound to the session that made them', async ({ page, browser }) => {
  // the first workflow request opens the embedded database: seconds on a loaded machine
  test.setTimeout(90_000)
  await openApp(page)
  expect(await api(page, '/api/workflows', 'POST', { name: '', model: 'fake/tools' })).toMatchObject({ status: 400, body: { message: 'Invalid workflow: Give the workflow a name. (name)' } })
  expect((await api(page, '/api/workflows', 'POST', { name: 'x', model: 'fake/tools', owner: 'me' })).status).toBe(400)
  expect((await api(page, '/api/workflows', 'POST', JSON.stringify({ name: 'x', model: 'm', systemPrompt: 'a'.repeat(40_000) }))).status).toBe(413)

  const created = await api(page, '/api/workflows', 'POST', { name: 'Digest', model: 'fake/tools', systemPrompt: 'Be brief.', tools: ['calculate'], firstMessage: 'What is 6*7?' })
  expect(created.status).toBe(201)
  const id = created.body.id as string
  expect((await api(page, '/api/workflows')).body.workflows.map((item: { id: string }) => item.id)).toContain(id)
  expect(await api(page, `/api/workflows/${id}`, 'PUT', { name: 'Digest v2', model: 'fake/tools', tools: [], firstMessage: 'Hi' })).toMatchObject({ status: 200, body: { id, name: 'Digest v2', createdAt: created.body.createdAt } })
  expect((await api(page, `/api/workflows/${id}/run`, 'POST', {})).status).toBe(400)
  const run = await api(page, `/api/workflows/${id}/run`, 'POST', { threadId: 'wf-thread' })
  expect(run.status).toBe(201)
  expect((await api(page, `/api/chats/${run.body.id}`)).body).toMatchObject({ threadId: 'wf-thread' })

  // Another browser session: the workflow, its run and its chat do not exist for it.
  const stranger = await newAppContext(browser, { baseURL: PROXY_APP_URL })
  const strangerPage = await stranger.newPage()
  await openApp(strangerPage)
  expect((await api(strangerPage, '/api/workflows')).body).toEqual({ workflows: [] })
  for (const [path, method, body] of [[`/api/workflows/${id}`, 'GET'], [`/api/workflows/${id}`, 'PUT', { name: 'mine now', model: 'm' }], [`/api/workflows/${id}/run`, 'POST', { threadId: 't' }], [`/api/workflows/${id}`, 'DELETE'], [`/api/chats/${run.body.id}`, 'GET']] as const) {
    expect((await api(strangerPage, path, method, body)).status, `${method} ${path}`).toBe(404)
  }
  // Bounded: 50 workflows a session.
  const statuses: number[] = []
  for (let index = 0; index < 50; index++) statuses.push((await api(strangerPage, '/api/workflows', 'POST', { name: `w${index}`, model: 'm' })).status)
  expect(statuses.filter(status => status === 201)).toHaveLength(50)
  expect((await api(strangerPage, '/api/workflows', 'POST', { name: 'one too many', model: 'm' })).status).toBe(409)
  await stranger.close()

  expect((await api(page, `/api/workflows/${id}`, 'DELETE')).status).toBe(200)
  expect((await api(page, `/api/workflows/${id}`)).status).toBe(404)
})

test('a workflow made in the Workflows panel runs on the server and its chat opens as a thread', async ({ page }) => {
  await openApp(page)
  // Until the server's list arrives the panel says it is loading, not that there are none.
  let answerList!: () => void
  const listAnswered = new Promise<void>((resolve) => {
    answerList = resolve
  })
  await page.route('**/api/workflows', async (route) => {
    if (route.request().method() === 'GET') await listAnswered
    await route.fallback()
  })
  await page.getByTestId('workflows-open').click()
  const panel = page.getByTestId('workflows-panel')
  const list = panel.getByTestId('workflows-list')
  await expect(list).toHaveAttribute('aria-busy', 'true')
  await expect(list).toContainText('Loading your workflows…')
  // a form filled meanwhile waits for the panel: the server's tools will appear above Save and move it
  await panel.getByTestId('workflow-name').fill('Sum check')
  await panel.getByTestId('workflow-model').fill('fake/tools')
  await panel.getByTestId('workflow-system').fill('Use the calculator.')
  await panel.getByTestId('workflow-first').fill('What is 2+2?')
  await expect(panel.getByTestId('workflow-save')).toBeDisabled()
  answerList()
  await expect(list).toHaveAttribute('aria-busy', 'false')
  await expect(list).toContainText('No workflows yet.')
  await expect(panel.getByTestId('workflow-save')).toBeEnabled()
  await page.unroute('**/api/workflows')
  await panel.getByTestId('workflow-tool-calculate').check()
  await panel.getByTestId('workflow-save').click()
  await expect(panel.getByTestId('workflow-item')).toHaveCount(1)
  await expect(panel.getByTestId('workflow-item')).toContainText('fake/tools · calculate')

  await panel.getByTestId('workflow-run-Sum check').click()
  await expect(page.getByTestId('workflows-panel')).toHaveCount(0)
  await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('What is 2+2?')
  await waitForIdle(page)
  await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]').first()).toHaveAttribute('data-status', 'done')
  await expect(lastAssistant(page)).toContainText('The tool returned: 4')
  await expect(lastAssistant(page)).toHaveAttribute('data-status', 'complete')

  // Its chat is a thread like any other: reloading shows it whole.
  await page.reload()
  await openApp(page, page.url())
  await expect(lastAssistant(page)).toContainText('The tool returned: 4')
  await expect(page.getByText('Sum check').first()).toBeVisible()
})
