import { chromium } from '@playwright/test'
import { startBenchApp } from './app-server'
const app = await startBenchApp(process.argv[2] ?? '.output', {}, 'list')
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] })
const page = await browser.newPage()
await page.goto(app.url, { waitUntil: 'commit' })
await page.waitForFunction(() => (window as any).__plugboardReady === true, undefined, { timeout: 60000 })
const entries = await page.evaluate(() => performance.getEntriesByType('resource').filter(e => e.name.endsWith('.js')).map(e => [e.name.split('/').pop(), Math.round((e as any).encodedBodySize / 1024), Math.round((e as any).decodedBodySize / 1024)]))
for (const e of entries) console.log(e.join('\t'))
await browser.close(); await app.stop()
