import { expect, test } from './support/own-upstream'
import { lastAssistant, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { addMcpServer } from './support/mcp-settings'

// A real MCP server with resources, reached through the app's relay, and a model behind the server's key (the fake
// OpenRouter records what it is sent). A resource attached from the composer's slash command travels with the
// message: its text, under its URI.
let app: AppInstance
let server: McpTestServer

test.beforeAll(async ({ upstream }) => {
  // a slow server: its resources are listed only when the test says, after the form has opened
  server = await startMcpTestServer({ cors: false, interactive: true, holdResourceList: true })
  app = await startApp({
    NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${server.port}`,
    NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
    NUXT_OPENROUTER_BASE_URL: `${upstream.url}/api/v1`,
  })
})

test.afterAll(async () => {
  await app?.stop()
  await server?.close()
})

test('a resource is attached from the composer with /server__resource, and the model receives its text under its URI', async ({ page, upstream }) => {
  // a whole flow: add a server, three commands, a reply
  test.slow()
  await openAppWith(page, { provider: openRouterProvider('fake/echo') }, app.url)
  await addMcpServer(page, 'Survey', server.url)
  await page.getByTestId('settings-cancel').click()
  await upstream.clear()

  const input = page.getByTestId('composer-input')
  await input.focus()
  await page.keyboard.type('/survey__res')
  const listbox = page.getByRole('listbox', { name: 'Tool commands' })
  await expect(listbox.getByTestId('slash-option-survey__resource')).toContainText('Survey: attach a resource')
  await page.keyboard.press('Tab')
  await expect(input).toHaveValue('/survey__resource ')
  await page.keyboard.press('Enter')
  // the form opens before the server has listed its resources: it asks for a URI to type
  const form = page.getByTestId('command-form')
  const choice = form.getByTestId('command-input-uri')
  await expect(form.getByRole('textbox')).toBeVisible()
  // once they are listed, the open form offers them as choices
  server.releaseResourceList()
  await expect(choice.locator('option[value="note://shopping"]')).toHaveCount(1)
  await expect(choice.locator('option[value="doc://guide"]')).toHaveCount(1)
  await choice.selectOption('note://shopping')
  await form.getByTestId('command-form-run').click()
  const attached = page.getByTestId('composer-attachment')
  await expect(attached).toHaveCount(1)
  await expect(attached).toContainText('Shopping list.txt')
  await expect(input).toHaveValue('')
  // typed in full on the line, no form
  await input.fill('/survey__resource doc://guide')
  await input.press('Enter')
  await expect(attached).toHaveCount(2)
  await expect(attached.nth(1)).toContainText('guide.md')
  // a binary resource is refused with the reason, and nothing is attached
  await input.fill('/survey__resource bin://logo')
  await input.press('Enter')
  await expect(page.getByText('Could not attach the resource: logo has no text to attach (only binary content).')).toBeVisible()
  await expect(attached).toHaveCount(2)
  await input.fill('')

  await sendMessage(page, 'What is on my list?')
  await expect(page.locator('main')).toHaveAttribute('data-streaming', 'false', { timeout: 20_000 })
  await waitForIdle(page)
  await expect(lastAssistant(page)).toContainText('What is on my list?')
  const requests = await upstream.requests()
  const messages = (requests.at(-1)?.body.messages ?? []) as Array<{ role: string, content: unknown }>
  const sent = JSON.stringify(messages.filter(message => message.role === 'user').at(-1)?.content)
  expect(sent).toContain('What is on my list?')
  expect(sent).toContain('[Resource note://shopping (Shopping list.txt, 18 bytes)]')
  expect(sent).toContain('Milk, eggs, bread.')
  expect(sent).toContain('[Resource doc://guide (guide.md, 38 bytes)]')
  expect(sent).toContain('Ask the test server anything.')
})
