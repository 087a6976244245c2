import type { Page } from '@playwright/test'
import { expect, test, type OwnUpstream } from './support/own-upstream'
import { lastAssistant, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'
import { seriousViolations } from './support/axe'

// The build with the server's key, pointed at the fake OpenRouter: fake/echo numbers its replies and quotes the
// last user message, so a regenerated reply and an edited question can be told apart, and every request is recorded.
test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })

const userMessages = (page: Page) => page.locator('[data-testid="message"][data-role="user"]')
const assistantMessages = (page: Page) => page.locator('[data-testid="message"][data-role="assistant"]')

/** The user and assistant texts of the last chat request the fake upstream received. */
async function lastRequestHistory(upstream: OwnUpstream): Promise<string[]> {
  const requests = await upstream.requests()
  const messages = (requests.at(-1)?.body.messages ?? []) as Array<{ role: string, content: string | null }>
  return messages.filter(message => message.role === 'user' || message.role === 'assistant').map(message => `${message.role}: ${message.content ?? ''}`)
}

async function openEchoChat(page: Page, runOnServer = false) {
  await openAppWith(page, { provider: openRouterProvider('fake/echo'), runOnServer })
}

async function ask(page: Page, text: string) {
  await sendMessage(page, text)
  await waitForIdle(page)
  await expect(lastAssistant(page)).toContainText(`to: ${text}`)
}

test.describe('branches: edit, regenerate, switch, fork, delete', () => {
  test('an edited question is sent as a new branch: the request holds only the edited path, and switching back restores the old one and its history', async ({ page, upstream }) => {
    await openEchoChat(page)
    await ask(page, 'What is 2+2?')
    await ask(page, 'And 3+3?')
    const oldReply = (await lastAssistant(page).innerText()).trim()
    await upstream.clear()

    const second = userMessages(page).nth(1)
    await second.hover()
    await second.getByTestId('message-edit').click()
    const editor = page.getByTestId('message-editor-input')
    await expect(editor).toBeFocused()
    await expect(editor).toHaveValue('And 3+3?')
    await editor.fill('And 4+4?')
    await page.getByTestId('message-editor-save').click()
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('to: And 4+4?')
    expect(await lastRequestHistory(upstream)).toEqual([
      'user: What is 2+2?',
      expect.stringMatching(/^assistant: Reply \d+ to: What is 2\+2\?$/),
      'user: And 4+4?',
    ])
    await expect(userMessages(page)).toHaveCount(2)
    const switcher = userMessages(page).nth(1).getByTestId('branch-switcher')
    await expect(switcher.getByTestId('branch-position')).toHaveText('2/2')
    await expect(switcher).toHaveAttribute('aria-label', 'Branch 2 of 2')

    await switcher.getByRole('button', { name: 'Previous branch' }).click()
    await expect(userMessages(page).nth(1).getByTestId('user-text')).toHaveText('And 3+3?')
    await expect(lastAssistant(page)).toHaveText(oldReply)
    await expect(userMessages(page).nth(1).getByTestId('branch-position')).toHaveText('1/2')
    await expect(page.getByTestId('copy-announcer')).toHaveText('Branch 1 of 2')

    // The model reads the branch shown.
    await upstream.clear()
    await ask(page, 'Go on')
    expect((await lastRequestHistory(upstream)).filter(line => line.startsWith('user'))).toEqual(['user: What is 2+2?', 'user: And 3+3?', 'user: Go on'])

    await userMessages(page).nth(1).getByRole('button', { name: 'Next branch' }).click()
    await expect(userMessages(page).nth(1).getByTestId('user-text')).toHaveText('And 4+4?')
    await expect(userMessages(page)).toHaveCount(2)
    await expect(lastAssistant(page)).toContainText('to: And 4+4?')
  })

  test('Escape leaves an edit unsent and the message as it was', async ({ page }) => {
    await openEchoChat(page)
    await ask(page, 'Keep me')
    const question = userMessages(page).first()
    await question.hover()
    await question.getByTestId('message-edit').click()
    await page.getByTestId('message-editor-input').fill('Changed my mind')
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('message-editor')).toHaveCount(0)
    await expect(question.getByTestId('user-text')).toHaveText('Keep me')
    await expect(page.getByTestId('branch-switcher')).toHaveCount(0)
  })

  test('regenerate adds a sibling reply; the old one is a branch away, and deleting the new one brings it back', async ({ page, upstream }) => {
    await openEchoChat(page)
    await ask(page, 'Tell me a fact')
    const first = (await lastAssistant(page).innerText()).trim()
    await upstream.clear()
    await lastAssistant(page).hover()
    await lastAssistant(page).getByTestId('message-regenerate').click()
    await waitForIdle(page)
    await expect(lastAssistant(page)).not.toHaveText(first)
    await expect(lastAssistant(page)).toContainText('to: Tell me a fact')
    expect(await lastRequestHistory(upstream)).toEqual(['user: Tell me a fact'])
    await expect(assistantMessages(page)).toHaveCount(1)
    await expect(lastAssistant(page).getByTestId('branch-position')).toHaveText('2/2')

    await lastAssistant(page).getByRole('button', { name: 'Previous branch' }).click()
    await expect(lastAssistant(page)).toContainText(first)
    await lastAssistant(page).getByRole('button', { name: 'Next branch' }).click()
    await expect(lastAssistant(page)).not.toContainText(first)

    // Delete asks once more on the same button, then the path moves to the sibling left.
    const remove = lastAssistant(page).getByTestId('message-delete')
    await lastAssistant(page).hover()
    await remove.click()
    await expect(remove).toHaveAttribute('data-confirming', 'true')
    await remove.click()
    await expect(lastAssistant(page)).toContainText(first)
    await expect(page.getByTestId('branch-switcher')).toHaveCount(0)
    await expect(assistantMessages(page)).toHaveCount(1)
  })

  test('Branch into new chat opens a new chat holding the conversation up to that reply; the original stays', async ({ page, upstream }) => {
    await openEchoChat(page)
    await ask(page, 'One')
    await ask(page, 'Two')
    const original = new URL(page.url()).searchParams.get('thread')
    const firstReply = assistantMessages(page).first()
    await firstReply.hover()
    await firstReply.getByTestId('message-fork').click()
    await expect.poll(() => new URL(page.url()).searchParams.get('thread')).not.toBe(original)
    await expect(userMessages(page)).toHaveCount(1)
    await expect(userMessages(page).first()).toContainText('One')
    await expect(assistantMessages(page)).toHaveCount(1)
    await upstream.clear()
    await ask(page, 'Three')
    expect((await lastRequestHistory(upstream)).filter(line => line.startsWith('user'))).toEqual(['user: One', 'user: Three'])

    await page.goto(`/?thread=${original}`)
    await expect(userMessages(page)).toHaveCount(2)
    await expect(userMessages(page).nth(1)).toContainText('Two')
  })

  test('edit, send and switch branches from the keyboard alone, with no serious axe violations', async ({ page }) => {
    // two axe passes (light and dark) beside other workers: 30 s ran out on a loaded machine
    test.slow()
    await openEchoChat(page)
    await ask(page, 'First try')
    const question = userMessages(page).first()
    // From the question's Copy button, Tab reaches Edit.
    await question.getByTestId('message-copy').focus()
    await page.keyboard.press('Tab')
    await expect(question.getByTestId('message-edit')).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('message-editor-input')).toBeFocused()
    expect(await seriousViolations(page)).toEqual([])
    await page.keyboard.press('ControlOrMeta+a')
    await page.keyboard.type('Second try')
    await page.keyboard.press('Control+Enter')
    await waitForIdle(page)
    await expect(lastAssistant(page)).toContainText('to: Second try')

    const previous = userMessages(page).first().getByRole('button', { name: 'Previous branch' })
    // the switcher waits while a reply is written (a disabled button takes no focus)
    await expect(previous).toBeEnabled()
    await previous.focus()
    await expect(previous).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(userMessages(page).first().getByTestId('user-text')).toHaveText('First try')
    // The focus follows to the switcher of the branch now shown (its Previous is the first branch: disabled).
    await expect(userMessages(page).first().getByRole('button', { name: 'Next branch' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(userMessages(page).first().getByTestId('user-text')).toHaveText('Second try')
    await expect(userMessages(page).first().getByRole('button', { name: 'Next branch' })).toBeDisabled()
    await expect(userMessages(page).first().getByRole('button', { name: 'Previous branch' })).toBeFocused()

    expect(await seriousViolations(page)).toEqual([])
    await page.getByTestId('color-mode').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    expect(await seriousViolations(page)).toEqual([])
  })

  test('a chat run on the server regenerates a reply there; both replies are kept across a reload', async ({ page, upstream }) => {
    await openEchoChat(page, true)
    const started = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
    await ask(page, 'Server question')
    await started
    const first = (await lastAssistant(page).innerText()).trim()
    await upstream.clear()
    const regenerated = page.waitForResponse(response => new URL(response.url()).pathname === '/api/chats' && response.request().method() === 'POST')
    await lastAssistant(page).hover()
    await lastAssistant(page).getByTestId('message-regenerate').click()
    const body = (await regenerated).request().postDataJSON() as { messages: Array<{ role: string, content: string }> }
    expect(body.messages.map(message => `${message.role}: ${message.content}`)).toEqual(['user: Server question'])
    await waitForIdle(page)
    await expect(lastAssistant(page)).not.toContainText(first)
    await expect(lastAssistant(page).getByTestId('branch-position')).toHaveText('2/2')
    expect(await lastRequestHistory(upstream)).toEqual(['user: Server question'])

    await page.reload()
    await waitForIdle(page)
    await expect(lastAssistant(page).getByTestId('branch-position')).toHaveText('2/2')
    await lastAssistant(page).getByRole('button', { name: 'Previous branch' }).click()
    await expect(lastAssistant(page)).toContainText(first)
  })
})

