import type { Page } from '@playwright/test'
import { expect, test } from './support/own-upstream'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'

// A chat's system prompt and parameters, and presets, on the build whose server key points at the fake OpenRouter:
// what the chat says it sends is what the upstream received, in the tab and in a chat the server runs.

type Message = { role: string, content: unknown }

async function openChatSettings(page: Page) {
  await page.getByRole('button', { name: 'Chat settings' }).click()
  await expect(page.getByTestId('chat-settings')).toBeVisible()
}

test.describe('on the build with the server\'s key', () => {
  test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })

  for (const runOnServer of [false, true]) {
    test(`a chat's system prompt and temperature reach the model (${runOnServer ? 'run on the server' : 'in the tab'})`, async ({ page, upstream }) => {
      await openAppWith(page, { provider: openRouterProvider('fake/text'), runOnServer })
      await sendMessage(page, 'First message')
      await waitForIdle(page)

      await openChatSettings(page)
      await page.getByTestId('chat-system-prompt').fill('You are a pirate.')
      await page.getByTestId('chat-temperature').fill('3')
      await page.getByTestId('chat-settings-save').click()
      // refused with the range, nothing stored, the panel stays open
      await expect(page.getByTestId('chat-settings')).toContainText('Temperature must be a number from 0 to 2.')
      await page.getByTestId('chat-temperature').fill('0.3')
      await page.getByTestId('chat-max-tokens').fill('256')
      await page.getByTestId('chat-settings-save').click()
      await expect(page.getByTestId('chat-settings')).toHaveCount(0)

      await upstream.clear()
      await sendMessage(page, 'Second message')
      await waitForIdle(page)
      const requests = await upstream.requests()
      expect(requests).toHaveLength(1)
      const body = requests[0]!.body
      expect(body.temperature).toBe(0.3)
      expect(body.max_tokens).toBe(256)
      expect(body).not.toHaveProperty('top_p')
      const messages = body.messages as Message[]
      expect(messages[0]).toEqual({ role: 'system', content: 'You are a pirate.' })
      expect(messages.map(message => message.role)).toEqual(['system', 'user', 'assistant', 'user'])
      // The prompt is sent, not shown as a message of the chat.
      await expect(page.locator('[data-testid="message"]')).toHaveCount(4)

      // Kept on the chat: the panel shows it again after a reload.
      await page.reload()
      await openApp(page, page.url())
      await openChatSettings(page)
      await expect(page.getByTestId('chat-system-prompt')).toHaveValue('You are a pirate.')
      await expect(page.getByTestId('chat-temperature')).toHaveValue('0.3')
    })
  }

  test('a preset made in Settings starts a new chat whose request carries its prompt, model, tools and parameters', async ({ page, upstream }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/text'), runOnServer: false })
    await page.getByTestId('settings-open').click()
    const presets = page.getByTestId('presets')
    await presets.getByTestId('preset-new').click()
    await presets.getByTestId('preset-save').click()
    await expect(presets.getByTestId('preset-error')).toHaveText('Give the preset a name.')
    await presets.getByTestId('preset-name').fill('Terse calculator')
    await presets.getByTestId('preset-model').fill('fake/echo-tools')
    await presets.getByTestId('preset-system-prompt').fill('Answer with numbers only.')
    await presets.getByTestId('preset-top-p').fill('0.5')
    await presets.getByTestId('preset-choose-tools').check()
    for (const box of await presets.locator('[data-testid^="preset-tool-"]').all()) await box.uncheck()
    await presets.getByTestId('preset-tool-calculate').check()
    await presets.getByTestId('preset-save').click()
    await expect(presets.getByTestId('preset-item')).toHaveCount(1)
    await expect(presets.getByTestId('preset-item')).toContainText('fake/echo-tools · Top P 0.5 · 1 tool')
    await page.getByTestId('settings-cancel').click()

    await page.getByTestId('preset-start-Terse calculator').click()
    await expect(page).toHaveURL(/thread=/)
    await upstream.clear()
    await sendMessage(page, 'What is 6*7?')
    await waitForIdle(page)
    const requests = await upstream.requests()
    const body = requests[0]!.body
    expect(body.model).toBe('fake/echo-tools')
    expect(body.top_p).toBe(0.5)
    expect((body.messages as Message[])[0]).toEqual({ role: 'system', content: 'Answer with numbers only.' })
    expect((body.tools as Array<{ function: { name: string } }>).map(tool => tool.function.name)).toEqual(['calculate'])

    // The chat's panel says where its model came from; the preset outlives a reload.
    await openChatSettings(page)
    await expect(page.getByTestId('chat-settings-model')).toContainText('From preset: Terse calculator')
    await expect(page.getByTestId('chat-top-p')).toHaveValue('0.5')
  })
})

test('a workflow runs on the demo model without a server key, started from a preset', async ({ page }) => {
  await openApp(page)
  await page.getByTestId('settings-open').click()
  const presets = page.getByTestId('presets')
  await presets.getByTestId('preset-new').click()
  await presets.getByTestId('preset-name').fill('Demo maths')
  await presets.getByTestId('preset-model').fill('plugboard/demo')
  await presets.getByTestId('preset-system-prompt').fill('Use the calculator.')
  await presets.getByTestId('preset-save').click()
  await expect(presets.getByTestId('preset-item')).toHaveCount(1)
  await page.getByTestId('settings-cancel').click()

  await page.getByTestId('workflows-open').click()
  const panel = page.getByTestId('workflows-panel')
  await panel.getByTestId('workflow-preset').click()
  await page.getByRole('option', { name: 'Demo maths' }).click()
  await expect(panel.getByTestId('workflow-model')).toHaveValue('plugboard/demo')
  await expect(panel.getByTestId('workflow-name')).toHaveValue('Demo maths')
  await expect(panel.getByTestId('workflow-system')).toHaveValue('Use the calculator.')
  await panel.getByTestId('workflow-first').fill('What is 12*7?')
  await panel.getByTestId('workflow-tool-calculate').check()
  await panel.getByTestId('workflow-save').click()
  await expect(panel.getByTestId('workflow-item')).toHaveCount(1)

  await panel.getByTestId('workflow-run-Demo maths').click()
  await expect(page.getByTestId('workflows-panel')).toHaveCount(0)
  await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('What is 12*7?')
  await waitForIdle(page)
  await expect(page.locator('[data-testid="tool-card"][data-tool="calculate"]').first()).toHaveAttribute('data-status', 'done')
  await expect(lastAssistant(page)).toContainText('84')
  await expect(lastAssistant(page)).toHaveAttribute('data-status', 'complete')
})
