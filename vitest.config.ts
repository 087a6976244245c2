import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { defineVitestProject } from '@nuxt/test-utils/config'
import vue from '@vitejs/plugin-vue'

const alias = {
  '#shared': fileURLToPath(new URL('./shared', import.meta.url)),
  '~~': fileURLToPath(new URL('.', import.meta.url)),
  '~': fileURLToPath(new URL('./app', import.meta.url)),
}

// `expect.poll` waits for an event; its default second is too short for a reply or a lock on a loaded 2-core machine
// (a passing poll ends as soon as its condition holds, so only a failing one waits this long).
const expectOptions = { poll: { timeout: 10_000 } }

export default defineConfig({
  test: {
    // Vitest's default is one file at a time on a 2-core machine (cores − 1); much of a test file waits (timers,
    // Redis, Postgres, MCP servers, time limits), so two at once took the unit tests from 170 s to 103 s here.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      { resolve: { alias }, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node', testTimeout: 20_000, expect: expectOptions } },
      // The Vue plugin lets DOM tests mount plain components (no Nuxt auto-imports) under jsdom.
      { resolve: { alias }, plugins: [vue()], test: { name: 'dom', include: ['tests/dom/**/*.test.ts'], environment: 'jsdom', setupFiles: ['fake-indexeddb/auto', './tests/dom/jsdom-inert-documents.setup.ts'], testTimeout: 30_000, expect: expectOptions } },
      {
        resolve: { alias },
        test: {
          name: 'types',
          include: [],
          typecheck: { enabled: true, only: true, include: ['tests/types/**/*.test-d.ts'], tsconfig: './tests/types/tsconfig.json' },
        },
      },
      await defineVitestProject({
        test: {
          name: 'nuxt',
          include: ['tests/component/**/*.test.ts'],
          environment: 'nuxt',
          setupFiles: ['fake-indexeddb/auto', './tests/component/jsdom-layout.setup.ts'],
          testTimeout: 30_000,
          expect: expectOptions,
          // starting the Nuxt app takes more than the default 10 s on a loaded 2-core machine
          hookTimeout: 60_000,
          // jsdom, like the dom project: one DOM implementation for the tests, and DOMPurify behaves there as in a browser
          environmentOptions: { nuxt: { rootDir: '.', domEnvironment: 'jsdom' } },
        },
      }),
    ],
  },
})
