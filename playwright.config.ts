import { defineConfig, devices } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3123)
const FAKE_PORT = Number(process.env.FAKE_OPENROUTER_PORT ?? 3124)

export default defineConfig({
  testDir: './tests/e2e',
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  reporter: process.env.CI ? 'list' : [['list']],
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: 'retain-on-failure' },
  projects: [{
    name: 'chromium',
    use: {
      ...devices['Desktop Chrome'],
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      },
    },
  }],
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
      command: 'node .output/server/index.mjs',
      url: `http://127.0.0.1:${PORT}`,
      env: { PORT: String(PORT), HOST: '127.0.0.1' },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
})
