import type { Page } from '@playwright/test'
import { expect, test, type OwnUpstream } from './support/own-upstream'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'

// The build with the server's key pointed at the fake OpenRouter, which records every request it receives.
test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })
// several chats, a reload and five replies each: long on a busy machine
test.describe.configure({ timeout: 120_000 })

/** Uses fake/echo-tools, which answers with the names of the tools it was offered. */
async function useEchoModel(page: Page, runOnServer: boolean) {
  await openAppWith(page, { provider: openRouterProvider('fake/echo-tools'), runOnServer })
}

/** Sends a message and returns the tool names the model was offered for it (the fake's last request). */
async function toolsOfferedFor(page: Page, upstream: OwnUpstream, text: string): Promise<string[]> {
  await upstream.clear()
  await sendMessage(page, text)
  await waitForIdle(page)
  const requests = await upstream.requests()
  expect(requests).toHaveLength(1)
  const offered = ((requests[0]!.body.tools ?? []) as Array<{ function: { name: string } }>).map(tool => tool.function.name)
  // what the model said it got is what the fake received
  await expect(lastAssistant(page)).toContainText(`Tools received: ${offered.length ? offered.join(', ') : 'no tools'}.`)
  return offered
}

async function openPopover(page: Page) {
  await page.getByTestId('tool-popover-trigger').click()
  await expect(page.getByTestId('tool-popover-content')).toBeVisible()
}

async function closePopover(page: Page) {
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('tool-popover-content')).toHaveCount(0)
}

const switchOf = (page: Page, name: string) => page.getByTestId(`tool-switch-${name}`)
const openChat = (page: Page, title: string) => page.getByTestId('thread-item').filter({ hasText: title }).getByRole('button').first().click()

for (const runOnServer of [true, false]) {
  test(`a choice made for one chat is sent with that chat's requests only (${runOnServer ? 'run on the server' : 'run in the tab'})`, async ({ page, upstream }) => {
    await useEchoModel(page, runOnServer)
    expect(await toolsOfferedFor(page, upstream, 'Chat A first')).toContain('calculate')

    // This chat is what the popover changes in an open chat
    await openPopover(page)
    await expect(page.getByRole('radio', { name: 'This chat' })).toBeChecked()
    await switchOf(page, 'calculate').click()
    await expect(switchOf(page, 'calculate')).toHaveAttribute('aria-checked', 'false')
    await switchOf(page, 'get_weather').click() // off for All chats, on here
    await expect(page.getByTestId('tool-scope-changed')).toContainText('2 changed in this chat')
    // All chats is untouched
    await page.getByTestId('tool-scope-all').click()
    await expect(switchOf(page, 'calculate')).toHaveAttribute('aria-checked', 'true')
    await expect(switchOf(page, 'get_weather')).toHaveAttribute('aria-checked', 'false')
    await page.getByTestId('tool-scope-chat').click()
    await closePopover(page)

    const inA = await toolsOfferedFor(page, upstream, 'Chat A second')
    expect(inA).not.toContain('calculate')
    expect(inA).toContain('get_weather')

    // a new chat starts from All chats
    await page.getByTestId('new-thread').click()
    await expect(page.getByTestId('message')).toHaveCount(0)
    const inB = await toolsOfferedFor(page, upstream, 'Chat B first')
    expect(inB).toContain('calculate')
    expect(inB).not.toContain('get_weather')
    await openPopover(page)
    await expect(switchOf(page, 'calculate')).toHaveAttribute('aria-checked', 'true')
    await expect(page.getByTestId('tool-scope-changed')).toHaveCount(0)
    await closePopover(page)

    // back in chat A after a reload: its choices were stored with it
    await page.reload()
    await openApp(page, page.url())
    await openChat(page, 'Chat A first')
    await expect(page.locator('[data-testid="message"][data-role="user"]').first()).toContainText('Chat A first')
    await openPopover(page)
    await expect(switchOf(page, 'calculate')).toHaveAttribute('aria-checked', 'false')
    await expect(page.getByTestId('tool-scope-changed')).toContainText('2 changed in this chat')
    await closePopover(page)
    const again = await toolsOfferedFor(page, upstream, 'Chat A third')
    expect(again).not.toContain('calculate')
    expect(again).toContain('get_weather')

    // Reset: chat A follows All chats again
    await openPopover(page)
    await page.getByTestId('tool-scope-reset').click()
    await expect(page.getByTestId('tool-scope-changed')).toHaveCount(0)
    await expect(switchOf(page, 'calculate')).toHaveAttribute('aria-checked', 'true')
    await closePopover(page)
    // search_chat_history is offered only when its check (are there other chats?) answers within the app's time
    // limit, which a loaded machine can miss: the choice of the chat is what is compared here.
    const chosen = (names: string[]) => names.filter(name => name !== 'search_chat_history').sort()
    expect(chosen(await toolsOfferedFor(page, upstream, 'Chat A fourth'))).toEqual(chosen(inB))
  })
}

test('All chats changes the defaults: new chats and chats without their own choice follow, a chat\'s own choice stays', async ({ page, upstream }) => {
  await useEchoModel(page, false)
  await toolsOfferedFor(page, upstream, 'Own choice chat')
  await openPopover(page)
  await switchOf(page, 'get_current_time').click() // this chat only: off
  await expect(page.getByTestId('tool-scope-changed')).toContainText('1 changed in this chat')
  await page.getByTestId('tool-scope-all').click()
  await switchOf(page, 'calculate').click() // every chat: off
  await expect(switchOf(page, 'calculate')).toHaveAttribute('aria-checked', 'false')
  await closePopover(page)

  const own = await toolsOfferedFor(page, upstream, 'Own choice chat again')
  expect(own).not.toContain('calculate')
  expect(own).not.toContain('get_current_time')

  await page.getByTestId('new-thread').click()
  // no chat yet: only All chats can be chosen, and it shows the new defaults
  await openPopover(page)
  await expect(page.getByRole('radio', { name: 'All chats' })).toBeChecked()
  await expect(page.getByRole('radio', { name: 'This chat' })).toBeDisabled()
  await expect(switchOf(page, 'calculate')).toHaveAttribute('aria-checked', 'false')
  await closePopover(page)
  const fresh = await toolsOfferedFor(page, upstream, 'Fresh chat')
  expect(fresh).not.toContain('calculate')
  expect(fresh).toContain('get_current_time')
})

test('keyboard only: the popover opens on its first switch, and This chat / All chats is reached and chosen with the keyboard', async ({ page, upstream }) => {
  await useEchoModel(page, false)
  await toolsOfferedFor(page, upstream, 'Keyboard chat')
  await page.getByTestId('tool-popover-trigger').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByTestId('tool-popover-content').getByRole('switch').first()).toBeFocused()
  const thisChat = page.getByRole('radio', { name: 'This chat' })
  await thisChat.focus()
  await expect(thisChat).toBeChecked()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('radio', { name: 'All chats' })).toBeChecked()
  await page.keyboard.press('ArrowLeft')
  await expect(thisChat).toBeChecked()
  // Space on a switch changes this chat only
  await switchOf(page, 'calculate').focus()
  await page.keyboard.press('Space')
  await expect(page.getByTestId('tool-scope-changed')).toContainText('1 changed in this chat')
  await closePopover(page)
  expect(await toolsOfferedFor(page, upstream, 'Keyboard chat again')).not.toContain('calculate')
})
