// Settings in sections that each save one way: Model with Cancel/Save, the others at once (and saying so).
import { expect, test, type Page } from '@playwright/test'
import { openApp, sendMessage, waitForIdle } from './helpers'
import { seriousViolations } from './support/axe'

const SECTIONS = ['settings-model', 'settings-presets', 'settings-tools-section', 'settings-mcp', 'settings-user-tools', 'settings-data-section']

async function openSettings(page: Page) {
  await page.getByTestId('settings-open').click()
  await expect(page.getByRole('dialog', { name: 'Settings' })).toBeVisible()
}

test.describe('Settings sections', () => {
  test('each section has one heading and one way to save; only Model has Cancel and Save', async ({ page }) => {
    await openApp(page)
    await openSettings(page)
    for (const id of SECTIONS) await expect(page.getByTestId(id).getByTestId('settings-save-note')).toHaveCount(1)
    await expect(page.getByTestId('settings-model').getByTestId('settings-save-note')).toHaveText(/press Save/)
    for (const id of SECTIONS.slice(1)) {
      await expect(page.getByTestId(id).getByTestId('settings-save-note')).toHaveText(/at once/)
      await expect(page.getByTestId(id).getByRole('button', { name: /^(Save|Cancel)$/ })).toHaveCount(0)
    }
    await expect(page.getByTestId('settings-model').getByTestId('settings-save')).toBeVisible()
    const titles = ['Model', 'Presets', 'Tools', 'MCP servers', 'Your tools', 'Data']
    for (const [index, id] of SECTIONS.entries()) await expect(page.getByTestId(id).getByRole('heading', { level: 2 })).toHaveText(titles[index]!)

    // the nav brings a section into view
    await page.getByTestId('settings-nav').getByRole('button', { name: 'Data' }).click()
    await expect(page.getByTestId('settings-data-section')).toBeInViewport()
  })

  test('Tools switches a tool off for every chat at once, and the demo then says it is off', async ({ page }) => {
    await openApp(page)
    await openSettings(page)
    const calculator = page.getByTestId('settings-tool-switch-calculate')
    await expect(calculator).toBeChecked()
    await calculator.click()
    await expect(calculator).not.toBeChecked()
    await page.keyboard.press('Escape')
    await sendMessage(page, 'What is 12*7?')
    await waitForIdle(page)
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('switched off')
  })

  test('Data exports every chat, tells what is stored, and deletes all chats after a confirmation', async ({ page }) => {
    await openApp(page)
    await sendMessage(page, 'Hello there')
    await waitForIdle(page)
    await openSettings(page)
    const data = page.getByTestId('settings-data')
    await expect(data.getByTestId('data-storage')).toContainText('saved in this browser')

    const download = page.waitForEvent('download')
    await data.getByTestId('data-export-json').click()
    expect((await download).suggestedFilename()).toMatch(/\.json$/)

    await data.getByTestId('data-delete-all').click()
    await page.getByTestId('data-delete-all-cancel').click()
    await expect(page.getByTestId('thread-item')).not.toHaveCount(0)
    await data.getByTestId('data-delete-all').click()
    await page.getByTestId('data-delete-all-confirm').click()
    await expect(data.getByTestId('data-delete-all')).toBeDisabled()
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('message')).toHaveCount(0)
    expect(await page.evaluate(() => new Promise<number>((resolve, reject) => {
      const request = indexedDB.open('plugboard')
      request.onerror = () => reject(request.error)
      request.onsuccess = () => {
        const count = request.result.transaction('threads').objectStore('threads').count()
        count.onsuccess = () => resolve(count.result)
      }
    }))).toBe(0)
  })

  for (const scheme of ['light', 'dark'] as const) {
    test(`has no serious axe violation (${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme })
      await openApp(page)
      await openSettings(page)
      await expect(page.getByTestId('settings-tools').locator('li').first()).toBeVisible()
      expect(await seriousViolations(page, { include: '[role="dialog"]' })).toEqual([])
    })
  }
})
