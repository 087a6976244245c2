import { existsSync } from 'node:fs'
import { defineConfig, devices } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3123)
const FAKE_PORT = Number(process.env.FAKE_OPENROUTER_PORT ?? 3124)
const PROXY_PORT = Number(process.env.E2E_PROXY_PORT ?? 3125)
// Icons of sets not installed come from the fake OpenRouter's stand-in for the Iconify API, kept per app instance.
const ICONS = { NUXT_ICONIFY_API_URL: `http://127.0.0.1:${FAKE_PORT}/iconify`, NUXT_ICON_CACHE_DIR: `.data/e2e-icons-${PORT}` }

// Each test has its own browser context (its own IndexedDB, localStorage and server session), and a spec that reads
// what the fake OpenRouter was sent asks for its worker's own fake and proxy app (tests/e2e/support/own-upstream.ts),
// so spec files run side by side. These run one at a time, after the rest, because they cannot share the machine:
// - chat-takeover, cut-tool-takeover, server-jobs-redis: instances on one Redis hand a job over when a claim lapses
//   (a 5 s lock); on a machine loaded by other workers a busy instance loses its claim and the job runs twice.
// - server-security: measures the server's memory under a 50 MB body, its answer time under a worst-case request, and
//   fills per-minute rate-limit windows.
// - streaming-render: search_chat_history reads a 10,000-message history within the tool's own time limit, which
//   it missed beside other workers on a loaded machine (the card said "Timed out").
// - plugin-dev-reload: starts a `nuxt dev` of its own, which compiles for minutes and takes both cores.
const ONE_AT_A_TIME = [
  'chat-takeover', 'cut-tool-takeover', 'server-jobs-redis', 'server-security', 'streaming-render', 'plugin-dev-reload',
].map(name => `${name}.spec.ts`)
// Three at once on a 2-core machine: most of a browser test waits (paced replies, page loads, app starts). The
// `chromium` project took 1,234 s at 3 workers against about 1,440 s at 2 (E2E_WORKERS sets another count).
const WORKERS = Number(process.env.E2E_WORKERS ?? 3)
// A whole run (CI, or `npm test`, which sets PLUGBOARD_WHOLE_SUITE) retries a failed test once and records a trace on
// that retry only; a run of a few specs records one for every test and keeps those that fail. Recording one for every
// test cost a quarter of the browser tests' CPU (41 tests: 340 CPU-s with, 244 without): `npm test` without CI=true
// took the `chromium` project from 15.7 to 27.1 minutes on a slower 2-core VM, and 3 tests ran out of time.
const WHOLE_SUITE = Boolean(process.env.CI || process.env.PLUGBOARD_WHOLE_SUITE)

const chromium = {
  ...devices['Desktop Chrome'],
  // No service worker but in the specs about it (pwa.spec.ts allows it): a fresh context would install the worker,
  // which precaches the whole build (195 files) in the background for nothing a test asserts. The `chromium` project,
  // side by side at 3 workers: 913 CPU-s and 513 s blocked, against 1,341 CPU-s and 712 s allowed.
  serviceWorkers: 'block' as const,
  launchOptions: {
    // `npm test` passes the one it found (Debian's chromium-headless-shell, else chromium)
    executablePath: process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  },
}

export default defineConfig({
  testDir: './tests/e2e',
  workers: WORKERS,
  retries: WHOLE_SUITE ? 1 : 0,
  timeout: 30_000,
  globalSetup: './tests/e2e/support/global-setup.ts',
  reporter: process.env.CI ? 'list' : [['list']],
  // A trace: DOM snapshots and a screencast of every action (WHOLE_SUITE above says when).
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: WHOLE_SUITE ? 'on-first-retry' : 'retain-on-failure' },
  projects: [
    { name: 'chromium', testIgnore: ONE_AT_A_TIME, use: chromium, workers: WORKERS },
    // `npm test` runs this project on its own afterwards (with --no-deps), so a failure above does not hide these.
    { name: 'one-at-a-time', testMatch: ONE_AT_A_TIME, use: chromium, workers: 1, dependencies: ['chromium'] },
  ],
  webServer: [
    {
      // A fake OpenRouter that replays recorded streams and records the requests it received.
      command: `node tests/fixtures/fake-openrouter/server.mjs`,
      url: `http://127.0.0.1:${FAKE_PORT}/health`,
      env: { PORT: String(FAKE_PORT) },
      reuseExistingServer: false,
      timeout: 20_000,
    },
    {
      // The app as a fresh install runs it: no server key, the demo model is the default.
      command: 'node .output/server/index.mjs',
      url: `http://127.0.0.1:${PORT}`,
      // The rate limit is probed by server-security.spec.ts on its own instance; the suite itself must not hit it.
      // Each server its own embedded database folder: PGlite's folder is one process's.
      env: { PORT: String(PORT), HOST: '127.0.0.1', NUXT_OPENROUTER_API_KEY: '', NUXT_RATE_LIMIT_PER_MINUTE: '10000', NUXT_DATABASE_DIR: `.data/e2e-pglite-${PORT}`, ...ICONS },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      // The same build with a server-held key pointed at the fake OpenRouter: the proxy is the default provider.
      command: 'node .output/server/index.mjs',
      url: `http://127.0.0.1:${PROXY_PORT}`,
      env: {
        PORT: String(PROXY_PORT),
        HOST: '127.0.0.1',
        NUXT_OPENROUTER_API_KEY: 'sk-or-test-server-key',
        NUXT_OPENROUTER_BASE_URL: `http://127.0.0.1:${FAKE_PORT}/api/v1`,
        NUXT_PUBLIC_DEFAULT_MODEL: 'fake/text',
        NUXT_RATE_LIMIT_PER_MINUTE: '10000',
        NUXT_DATABASE_DIR: `.data/e2e-pglite-${PROXY_PORT}`,
        ...ICONS,
      },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
})
