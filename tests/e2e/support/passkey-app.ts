import { test } from '@playwright/test'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { freePort, startApp } from './app-instance'
import type { AppInstance } from './app-instance'
import { addVirtualDevice } from './virtual-passkeys'
import type { VirtualDevice } from './virtual-passkeys'
import { newAppContext } from '../helpers'

/** A browser with its own virtual authenticator: one person's device. */
export interface PasskeyDevice { page: Page, device: VirtualDevice }

/**
 * One app with passkey accounts for a serial spec: started before its tests on `localhost` (passkeys need a host
 * name, an IP address is never a relying party), stopped after them with every device the spec opened.
 */
export function passkeyApp(env: Record<string, string> = {}) {
  let app: AppInstance | undefined
  let site = ''
  const contexts: BrowserContext[] = []
  test.beforeAll(async () => {
    // the embedded database opens on the first request: seconds on a loaded machine
    test.setTimeout(180_000)
    const port = await freePort()
    site = `http://localhost:${port}`
    app = await startApp({ NUXT_ACCOUNTS: 'passkeys', NUXT_ACCOUNTS_ORIGIN: site, ...env }, { port })
  })
  test.afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close()
    await app?.stop()
  })
  return {
    get app(): AppInstance {
      if (!app) throw new Error('the passkey app has not started')
      return app
    },
    /** Where the browsers open the app. */
    get site(): string {
      return site
    },
    async newDevice(browser: Browser, options: { viewport?: { width: number, height: number }, colorScheme?: 'light' | 'dark' } = {}): Promise<PasskeyDevice> {
      const context = await newAppContext(browser, options)
      contexts.push(context)
      const page = await context.newPage()
      return { page, device: await addVirtualDevice(page) }
    },
  }
}
