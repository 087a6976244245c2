// usage: node loadbench.mjs <url> <n> <label> [chromium args...]
import { chromium } from '@playwright/test'
import { readdirSync, readFileSync } from 'node:fs'
const [url, n, label, ...extra] = process.argv.slice(2)
function chromeCpu() {
  let s = 0
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      if (!/chrom/.test(cmd)) continue
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      s += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100
    } catch {}
  }
  return s
}
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell', args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', ...extra] })
// browser's own pid tree: sum all chrom processes (none other running)
const c0 = chromeCpu(); const t0 = Date.now()
for (let i = 0; i < Number(n); i++) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(url, { waitUntil: 'commit' })
  await page.waitForFunction(() => window.__plugboardReady === true, null, { timeout: 30000 })
  await context.close()
}
const c1 = chromeCpu(); const t1 = Date.now()
await browser.close()
const own=process.cpuUsage();console.log(`node ${((own.user+own.system)/1e6).toFixed(1)}s ${label}\tcpu/load ${((c1 - c0) / n).toFixed(3)} s\twall/load ${((t1 - t0) / n / 1000).toFixed(3)} s`)
