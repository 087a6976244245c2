import type { Page } from '@playwright/test'
import { expect, test } from './support/own-upstream'
import { lastAssistant, openApp, openAppWith, openRouterProvider, sendMessage, waitForIdle } from './helpers'

// Issue 9, items 5 and 6, in a real chat: a big result paged with read_tool_result, and why a tool is not offered.

async function openPopover(page: Page) {
  await page.getByTestId('tool-popover-trigger').click()
  await expect(page.getByTestId('tool-popover-content')).toBeVisible()
}

test.describe('a big result, paged', () => {
  test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })

  test('the model reads the rest of a cut result with read_tool_result, offered only once a result was cut', async ({ page, upstream }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/paging'), runOnServer: false })
    // 40 000 characters: the model gets the first 32 768, and the second page starts with a marker
    await page.evaluate(() => {
      (window as any).plugboard.registerTool(
        { type: 'function', function: { name: 'big_result', description: 'Returns a long report', parameters: { type: 'object', properties: {} } } },
        () => `${'a'.repeat(32_768)}PAGE-TWO-BEGINS${'b'.repeat(7_217)}`,
      )
    })
    await upstream.clear()
    await sendMessage(page, 'Read the whole report')
    await waitForIdle(page)

    const big = page.locator('[data-testid="tool-card"][data-tool="big_result"]')
    const reader = page.locator('[data-testid="tool-card"][data-tool="read_tool_result"]')
    await expect(big).toHaveAttribute('data-status', 'done')
    await expect(reader).toHaveAttribute('data-status', 'done')
    await expect(lastAssistant(page)).toContainText('PAGE-TWO-BEGINS')

    const requests = await upstream.requests()
    const offered = requests.map(request => ((request.body.tools ?? []) as Array<{ function: { name: string } }>).map(tool => tool.function.name))
    expect(offered).toHaveLength(3)
    expect(offered[0]).not.toContain('read_tool_result')
    expect(offered[1]).toContain('read_tool_result')
    // what the model got of the big result was cut, with a note naming read_tool_result
    const toolMessage = (requests[1]!.body.messages as Array<{ role: string, content: string }>).find(message => message.role === 'tool')!
    expect(toolMessage.content.length).toBeLessThan(40_000)
    expect(toolMessage.content).toContain('read_tool_result')
    expect(toolMessage.content).not.toContain('PAGE-TWO-BEGINS')
  })
})

test.describe('an honest popover', () => {
  test('a tool that is on but not offered says why, in All chats and when switched on for one chat only', async ({ page }) => {
    await openApp(page)
    await page.evaluate(() => {
      (window as any).plugboard.registerTool(
        { type: 'function', function: { name: 'offline_only', description: 'Needs the network to be down', parameters: { type: 'object', properties: {} } }, defaultEnabled: false, available: () => false, unavailableReason: 'Only works offline' },
        () => 'ok',
      )
    })
    // The first chat: search_chat_history (on by default) has no earlier chats to search.
    await sendMessage(page, 'Hello there')
    await waitForIdle(page)
    await openPopover(page)
    await expect(page.locator('[data-tool="search_chat_history"] [data-slot="not-offered"]')).toHaveText('Not offered: Needs earlier chats')
    const searchSwitch = page.getByTestId('tool-switch-search_chat_history')
    await expect(searchSwitch).toHaveAttribute('aria-describedby', /not-offered/)
    // offline_only is off: nothing to explain
    await expect(page.locator('[data-tool="offline_only"] [data-slot="not-offered"]')).toHaveCount(0)
    // switched on for this chat only, the next send checks it and the popover says why it was not offered
    await page.getByTestId('tool-switch-offline_only').click()
    await page.keyboard.press('Escape')
    await sendMessage(page, 'And again')
    await waitForIdle(page)
    await openPopover(page)
    await expect(page.locator('[data-tool="offline_only"] [data-slot="not-offered"]')).toHaveText('Not offered: Only works offline')
  })
})
