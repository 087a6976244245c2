import type { Page } from '@playwright/test'
import { expect, test } from './support/own-upstream'
import { validateStrictHistory } from '../../shared/history/validate-strict-history'
import type { ModelMessage } from '../../shared/types/chat'
import { openApp, sendMessage, waitForIdle } from './helpers'

function composer(page: Page) {
  return page.getByTestId('composer-input')
}

/** Types a slash command line and presses Enter. */
async function runCommand(page: Page, line: string) {
  await composer(page).fill(line)
  await composer(page).press('Enter')
}

function card(page: Page, tool: string) {
  return page.locator(`[data-testid="tool-card"][data-tool="${tool}"]`).last()
}

test.describe('slash commands', () => {
  test('typing / lists the tools\' commands, and the keyboard alone picks one', async ({ page }) => {
    await openApp(page)
    const input = composer(page)
    await input.focus()
    await page.keyboard.type('/')
    const listbox = page.getByRole('listbox', { name: 'Tool commands' })
    await expect(listbox).toBeVisible()
    await expect(input).toHaveAttribute('role', 'combobox')
    await expect(input).toHaveAttribute('aria-expanded', 'true')
    await expect(listbox.getByRole('option')).toHaveText([/\/calc/, /\/documents/, /\/fetch/, /\/history/, /\/time/, /\/weather/])
    // the first option is active; ArrowDown moves the active option, which the text box names for screen readers
    const first = listbox.getByRole('option').first()
    await expect(first).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('ArrowDown')
    const second = listbox.getByRole('option').nth(1)
    await expect(second).toHaveAttribute('aria-selected', 'true')
    await expect(input).toHaveAttribute('aria-activedescendant', (await second.getAttribute('id'))!)
    // Escape closes the list and leaves the text
    await page.keyboard.press('Escape')
    await expect(listbox).toBeHidden()
    await expect(input).toHaveAttribute('aria-expanded', 'false')
    await expect(input).toHaveValue('/')
    // typing narrows the list; Tab completes the command
    await page.keyboard.type('ca')
    await expect(listbox.getByRole('option')).toHaveText([/\/calc/])
    await page.keyboard.press('Tab')
    await expect(input).toHaveValue('/calc ')
    await expect(listbox).toBeHidden()
    await expect(input).toBeFocused()
    // Enter runs it once the arguments are typed
    await page.keyboard.type('6*7')
    await page.keyboard.press('Enter')
    await expect(card(page, 'calculate')).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await expect(card(page, 'calculate').getByTestId('tool-summary')).toHaveText('42')
    await expect(input).toHaveValue('')
  })

  test('/calc 12*7 shows its card with 84, and the model\'s next answer is given that result in a valid history', async ({ page, upstream, proxyUrl }) => {
    await openApp(page, proxyUrl)
    await upstream.clear()
    await runCommand(page, '/calc 12*7')
    await expect(card(page, 'calculate')).toHaveAttribute('data-status', 'done', { timeout: 15_000 })
    await expect(card(page, 'calculate').getByTestId('tool-summary')).toHaveText('84')
    await expect(page.locator('[data-testid="message"][data-role="user"]').last()).toContainText('/calc 12*7')
    expect(await upstream.requests()).toHaveLength(0) // running a command asks no model

    await sendMessage(page, 'What did the calculator say?')
    await waitForIdle(page)
    const requests = await upstream.requests()
    expect(requests.length).toBeGreaterThan(0)
    const messages = requests.at(-1)!.body.messages as ModelMessage[]
    const call = messages.find(message => message.role === 'assistant' && message.tool_calls?.length)
    expect(call).toMatchObject({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'calculate', arguments: '{"expression":"12*7"}' } }] })
    expect(messages).toContainEqual(expect.objectContaining({ role: 'tool', content: '84' }))
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'What did the calculator say?' })
    expect(validateStrictHistory(messages)).toEqual([])

    // the card and its result are stored: they come back after a reload
    await page.reload()
    await openApp(page, page.url())
    await expect(card(page, 'calculate').getByTestId('tool-summary')).toHaveText('84')
  })

  test('a command without its required input asks for it in a small form', async ({ page }) => {
    await openApp(page)
    await runCommand(page, '/calc')
    const form = page.getByTestId('command-form')
    await expect(form).toBeVisible()
    const field = form.getByLabel(/expression/)
    await expect(field).toBeFocused()
    await form.getByRole('button', { name: 'Run' }).click()
    await expect(form.getByRole('alert')).toHaveText('expression is required')
    await field.fill('2^10')
    await page.keyboard.press('Enter')
    await expect(form).toBeHidden()
    await expect(card(page, 'calculate').getByTestId('tool-summary')).toHaveText('1024', { timeout: 15_000 })
  })

  test('an unknown command is not sent, says so, and keeps what was typed', async ({ page }) => {
    await openApp(page)
    await runCommand(page, '/nope 1 2 3')
    await expect(page.getByTestId('slash-problem')).toHaveText('No tool has the command /nope. Type / to see the commands.')
    await expect(composer(page)).toHaveValue('/nope 1 2 3')
    await expect(page.locator('[data-testid="message"]')).toHaveCount(0)
  })

  test('a priced tool\'s card shows its run\'s estimated cost, and the chat shows the total', async ({ page }) => {
    await openApp(page)
    await page.evaluate(() => {
      (window as any).plugboard.registerTool({
        type: 'function',
        function: { name: 'priced_lookup', description: 'A paid lookup', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
        catalog: { commandName: 'lookup', costingModel: { rate: 0.25, unit: 'request' } },
      }, ({ q }: { q: string }) => `found ${q}`)
    })
    await runCommand(page, '/lookup otters')
    await expect(card(page, 'priced_lookup').getByTestId('tool-summary')).toHaveText('found otters')
    await expect(card(page, 'priced_lookup').getByTestId('tool-cost')).toHaveText('≈ $0.25')
    await expect(page.getByTestId('chat-cost-tools')).toHaveText('tools ≈ $0.25')
    await runCommand(page, '/lookup seals')
    await expect(card(page, 'priced_lookup').getByTestId('tool-summary')).toHaveText('found seals')
    await expect(page.getByTestId('chat-cost-tools')).toHaveText('tools ≈ $0.50')
  })
})
