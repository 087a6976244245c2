import type { Browser, BrowserContext, Page } from '@playwright/test'
import { newAppContext, openApp } from '../helpers'

/**
 * Devices of one owner for the sync specs: each its own browser context (its own IndexedDB) carrying the owner's
 * session cookie, opened on the app at `url`. The contexts are kept to be closed after each test.
 */
export function syncDevices() {
  const contexts: BrowserContext[] = []
  return {
    async open(browser: Browser, url: string, cookie: string): Promise<Page> {
      const [name, value] = cookie.split('=') as [string, string]
      const context = await newAppContext(browser, { storageState: { cookies: [{ name, value, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' }], origins: [] } })
      contexts.push(context)
      const page = await context.newPage()
      await openApp(page, url)
      return page
    },
    /** A context the test made itself, closed with the others. */
    adopt(context: BrowserContext): void {
      contexts.push(context)
    },
    async closeAll(): Promise<void> {
      for (const context of contexts.splice(0)) await context.close()
    },
  }
}

/** The device's sync state in the chat list. */
export const syncStatusOf = (page: Page) => page.getByTestId('sync-status')

/** A chat's row in the device's chat list. */
export const threadRow = (page: Page, text: string) => page.getByTestId('thread-item').filter({ hasText: text })
