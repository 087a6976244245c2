import { expect, test, type Page } from '@playwright/test'
import { lastAssistant, openApp, openAppWith, openRouterProvider, PROXY_APP_URL, sendMessage, waitForIdle } from './helpers'

// Tools that show their result as a picture: a plugin's own card (while it runs and when done), a card that throws
// (the standard card comes back, with a note), and the built-in cards for the time, the weather and chat history.

// Each test runs a whole chat (two in the history test) on a shared, loaded machine.
test.describe.configure({ timeout: 90_000 })

interface CardWindow {
  plugboard: {
    registerTool: (definition: unknown, handler: (args: never) => unknown, options?: unknown) => () => void
    registerToolCard: (name: string, component: unknown) => () => void
    h: (...args: unknown[]) => unknown
  }
  releaseDice?: () => void
}

/** A dice tool that waits for the test before it answers, and its card: the arguments while running, the roll when done. */
async function registerDice(page: Page, card: 'working' | 'throwing') {
  await page.evaluate((card) => {
    const app = window as unknown as CardWindow
    const released = new Promise<void>((resolve) => {
      app.releaseDice = resolve
    })
    app.plugboard.registerTool(
      { type: 'function', function: { name: 'dice_roll', description: 'Rolls a die', parameters: { type: 'object', properties: { sides: { type: 'integer' } }, required: ['sides'] } } },
      async ({ sides }: { sides: number }) => {
        await released
        return { value: sides - 3, sides }
      },
    )
    const { h } = app.plugboard
    app.plugboard.registerToolCard('dice_roll', card === 'working'
      ? {
          props: ['args', 'result', 'status', 'statusText', 'card'],
          setup: (props: { args?: { sides: number }, result?: { value: number }, status: string }) => () => h('p', { 'data-testid': 'dice-card' }, props.status === 'done'
            ? `Rolled ${props.result?.value}`
            : `Rolling a d${props.args?.sides}…`),
        }
      : { setup: () => () => { throw new Error('the dice card broke') } })
  }, card)
}

test.describe('a plugin\'s own card', () => {
  test.use({ baseURL: PROXY_APP_URL })

  test('shows the arguments while the tool runs and the result when it is done', async ({ page }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/call-named'), runOnServer: false })
    await registerDice(page, 'working')
    await sendMessage(page, 'call dice_roll {"sides":20}')
    const card = page.locator('[data-testid="tool-card"][data-tool="dice_roll"]')
    await expect(card).toHaveAttribute('data-status', 'running')
    await expect(card.getByTestId('dice-card')).toHaveText('Rolling a d20…')
    await page.evaluate(() => (window as unknown as CardWindow).releaseDice!())
    await waitForIdle(page)
    await expect(card).toHaveAttribute('data-status', 'done')
    await expect(card.getByTestId('dice-card')).toHaveText('Rolled 17')
    // the card replaces the standard one-line summary; the header keeps the tool's name and status
    await expect(card.getByTestId('tool-summary')).toHaveCount(0)
    await expect(card.getByTestId('tool-status')).toBeVisible()
    await card.scrollIntoViewIfNeeded()
    await page.screenshot({ path: test.info().outputPath('plugin-card.png') })
    await expect(lastAssistant(page)).toContainText('The tool returned: {"value":17,"sides":20}')
  })

  test('a card that throws is replaced by the standard card with a note, and the chat goes on', async ({ page }) => {
    const errors: string[] = []
    page.on('pageerror', error => errors.push(error.message))
    await openAppWith(page, { provider: openRouterProvider('fake/call-named'), runOnServer: false })
    await registerDice(page, 'throwing')
    await sendMessage(page, 'call dice_roll {"sides":6}')
    await page.evaluate(() => (window as unknown as CardWindow).releaseDice!())
    await waitForIdle(page)
    const card = page.locator('[data-testid="tool-card"][data-tool="dice_roll"]')
    await expect(card).toHaveAttribute('data-status', 'done')
    await expect(card.getByTestId('tool-card-fallback-note')).toContainText('the dice card broke')
    await expect(card.getByTestId('tool-summary')).toHaveText('{"value":3,"sides":6}')
    await expect(lastAssistant(page)).toContainText('The tool returned')
    expect(errors).toEqual([])
  })
})

test('the time shows as a clock in the asked zone', async ({ page }) => {
  await openApp(page)
  await sendMessage(page, 'What time is it in Tokyo?')
  await waitForIdle(page)
  const card = page.locator('[data-testid="tool-card"][data-tool="get_current_time"]')
  await expect(card).toHaveAttribute('data-status', 'done')
  await expect(card.getByTestId('clock-card-zone')).toContainText('Asia/Tokyo (UTC+09:00)')
  const time = await card.getByTestId('clock-card-time').textContent()
  const tokyo = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date())
  // the hour read from the result, not the viewer's clock (the minute may have turned since)
  expect(time!.slice(0, 2)).toBe(tokyo.slice(0, 2))
  await expect(card.getByRole('img', { name: /Clock showing \d\d:\d\d in Asia\/Tokyo/ })).toBeVisible()
})

test.describe('built-in cards on a scripted model', () => {
  test.use({ baseURL: PROXY_APP_URL })

  test('the weather shows the conditions now and a forecast row', async ({ page }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/call-named'), runOnServer: false, toolPolicies: { get_weather: 'auto' } })
    // Open-Meteo is not reached from the tests: the tool is replaced at its handler with what the real one returns
    await page.evaluate(() => {
      (window as unknown as CardWindow).plugboard.registerTool(
        { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
        () => ({
          location: 'Lisbon, Lisbon, Portugal', time: '2026-11-26T18:00', temperatureC: 16.4, feelsLikeC: 15.1, humidityPercent: 72, windKmh: 11.2, conditions: 'partly cloudy',
          forecast: [
            { date: '2026-11-26', highC: 18, lowC: 12, conditions: 'partly cloudy' }, { date: '2026-11-27', highC: 17, lowC: 11, conditions: 'rain' },
            { date: '2026-11-28', highC: 15, lowC: 10, conditions: 'rain showers' }, { date: '2026-11-29', highC: 19, lowC: 12, conditions: 'clear sky' },
          ],
        }),
        { override: true, enabled: true },
      )
    })
    await sendMessage(page, 'call get_weather {"city":"Lisbon"}')
    await waitForIdle(page)
    const card = page.locator('[data-testid="tool-card"][data-tool="get_weather"]')
    await expect(card).toHaveAttribute('data-status', 'done')
    await expect(card.getByTestId('weather-card-temperature')).toHaveText('16°C')
    await expect(card.getByTestId('weather-card')).toContainText('Lisbon, Lisbon, Portugal')
    await expect(card.getByTestId('weather-card-forecast').locator('li')).toHaveText(['Thu18° 12°', 'Fri17° 11°', 'Sat15° 10°', 'Sun19° 12°'])
  })

  test('chat history results open the message they found', async ({ page }) => {
    await openAppWith(page, { provider: openRouterProvider('fake/call-named'), runOnServer: false })
    await sendMessage(page, 'Remember the Lisbon hotel near the river')
    await waitForIdle(page)
    const firstChat = new URL(page.url()).searchParams.get('thread')
    await page.getByTestId('new-thread').click()
    await sendMessage(page, 'call search_chat_history {"query":"Lisbon hotel"}')
    await waitForIdle(page)
    const card = page.locator('[data-testid="tool-card"][data-tool="search_chat_history"]')
    await expect(card).toHaveAttribute('data-status', 'done')
    const hit = card.getByTestId('history-card-hit')
    await expect(hit).toHaveCount(1)
    await expect(hit).toContainText('Remember the Lisbon hotel near the river')
    await hit.click()
    await expect.poll(() => new URL(page.url()).searchParams.get('thread')).toBe(firstChat)
    await expect(page.getByText('Remember the Lisbon hotel near the river').first()).toBeVisible()
  })
})
