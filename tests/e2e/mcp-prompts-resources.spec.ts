import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { openApp, sendMessage, waitForIdle } from './helpers'
import { startApp } from './support/app-instance'
import type { AppInstance } from './support/app-instance'
import { startMcpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import type { McpTestServer } from '../fixtures/mcp-server/mcp-test-server'
import { addMcpServer } from './support/mcp-settings'

// A real MCP server with prompts and resources, reached through the app's relay: its prompts are slash commands
// whose text is sent as the user's message, and its resources are attached to a message from Settings.
let app: AppInstance
let server: McpTestServer

test.beforeAll(async () => {
  server = await startMcpTestServer({ cors: false, interactive: true })
  app = await startApp({ NUXT_MCP_ALLOWED_HOSTS: `127.0.0.1:${server.port}` })
})

test.afterAll(async () => {
  await app?.stop()
  await server?.close()
})

function lastUserMessage(page: Page) {
  return page.locator('[data-testid="message"][data-role="user"]').last()
}

test.describe('MCP prompts and resources', () => {
  test('a server\'s prompt is a slash command: its arguments are asked for, and its text is sent as the user\'s message', async ({ page }) => {
    await openApp(page, app.url)
    await addMcpServer(page, 'Survey', server.url)
    await page.getByTestId('settings-cancel').click()

    const input = page.getByTestId('composer-input')
    await input.focus()
    await page.keyboard.type('/survey__')
    const listbox = page.getByRole('listbox', { name: 'Tool commands' })
    await expect(listbox.getByTestId('slash-option-survey__greet')).toContainText('Greeting')
    await expect(listbox.getByTestId('slash-option-survey__mixed')).toBeVisible()
    await page.keyboard.type('g')
    await page.keyboard.press('Tab')
    await expect(input).toHaveValue('/survey__greet ')
    // an optional argument typed on the line; the required one is missing, so the command's form asks for it
    await page.keyboard.type('style=warm')
    await page.keyboard.press('Enter')
    const form = page.getByTestId('command-form')
    await form.getByTestId('command-input-name').fill('Ada')
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.screenshot({ path: '/tmp/mcp-prompt-form-desktop.png' })
    await form.getByTestId('command-form-run').click()
    await expect(lastUserMessage(page)).toContainText('Say hello to Ada in a warm way.')
    await expect(page.locator('main')).toHaveAttribute('data-streaming', 'false', { timeout: 20_000 })
    await waitForIdle(page)
    await expect(input).toHaveValue('')

    // a prompt with an image and a resource: the text is kept, the image named
    await input.fill('/survey__mixed')
    await input.press('Enter')
    await expect(lastUserMessage(page)).toContainText('Look at this.')
    await expect(lastUserMessage(page)).toContainText('[Image: image/png, not attached]')
    await expect(lastUserMessage(page)).toContainText('Milk, eggs, bread.')
  })

  test('a server\'s resource is attached from Settings and sent with the message as a document; a binary one is refused with the reason', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await openApp(page, app.url)
    const row = await addMcpServer(page, 'Survey', server.url)
    await row.getByTestId('mcp-resources-show').click()
    const shopping = row.locator('[data-testid="mcp-resource"][data-uri="note://shopping"]')
    await expect(shopping).toContainText('Shopping list')
    await expect(row.getByTestId('mcp-resource')).toHaveCount(3)
    await row.locator('[data-testid="mcp-resource"][data-uri="bin://logo"]').getByTestId('mcp-resource-attach').click()
    await expect(row.getByTestId('mcp-resources-note')).toHaveText('Could not attach logo: logo has no text to attach (only binary content).')
    await shopping.getByTestId('mcp-resource-attach').click()
    await expect(row.getByTestId('mcp-resources-note')).toHaveText('Shopping list.txt is attached to the message you are writing.')
    await row.screenshot({ path: '/tmp/mcp-resources-phone.png' })
    await page.getByTestId('settings-cancel').click()

    await expect(page.getByTestId('composer-attachment')).toHaveCount(1)
    await expect(page.getByTestId('composer-attachment')).toContainText('Shopping list.txt')
    await sendMessage(page, 'What is on my list?')
    await expect(page.locator('main')).toHaveAttribute('data-streaming', 'false', { timeout: 20_000 })
    await waitForIdle(page)
    const document = lastUserMessage(page).getByTestId('message-document')
    await expect(document).toContainText('Shopping list.txt')
    await expect(document).toContainText('1 page, 1 passage')
    // the resource's text is context, not a request: the demo quotes it instead of calling the server's read_note
    const reply = page.locator('[data-testid="message"][data-role="assistant"]').last()
    await expect(reply).toContainText('Milk, eggs, bread.')
    await expect(page.getByTestId('tool-card')).toHaveCount(0)
    await expect(page.getByTestId('composer-attachment')).toHaveCount(0)
  })
})
