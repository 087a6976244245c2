import { readdirSync, readFileSync } from 'node:fs'
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

/**
 * Test files that need modules of their own run isolated; the rest share a worker's modules (decision 0033). Found by
 * what a file does: it mocks modules (`vi.mock`: a module another file already imported would not be mocked), stubs
 * globals or the environment (`vi.stubGlobal`, `vi.stubEnv`, `vi.resetModules`, `globalThis.x = …`, `window.x = …`,
 * `process.env.X = …`), or installs the app's format checks. `alsoNamed`: files that expect process-wide state fresh
 * in a way no pattern sees (the page's one tool registry on `globalThis`).
 */
const NEEDS_OWN_MODULES = /\bvi\.(?:mock|doMock|stubGlobal|stubEnv|resetModules)\(|\b(?:globalThis|window)(?:\.\w+|\[[^\]]+\])\s*=[^=]|\bprocess\.env\.\w+\s*=[^=]|\binstallBoundedFormats\(/
function isolatedTestFiles(folder: string, alsoNamed: string[]): string[] {
  const directory = fileURLToPath(new URL(`./tests/${folder}/`, import.meta.url))
  return readdirSync(directory)
    .filter(file => file.endsWith('.test.ts'))
    .filter(file => alsoNamed.includes(file.slice(0, -'.test.ts'.length)) || NEEDS_OWN_MODULES.test(readFileSync(`${directory}${file}`, 'utf8')))
    .map(file => `tests/${folder}/${file}`)
}
const UNIT_ISOLATED = isolatedTestFiles('unit', ['tool-registry'])
const DOM_ISOLATED = isolatedTestFiles('dom', ['tool-registry-design-api', 'tool-registry-tabs'])
const unitTest = { environment: 'node', testTimeout: 20_000, expect: expectOptions }
const domTest = { environment: 'jsdom', setupFiles: ['fake-indexeddb/auto', './tests/dom/jsdom-inert-documents.setup.ts'], testTimeout: 30_000, expect: expectOptions }

export default defineConfig({
  test: {
    // Vitest's default is one file at a time on a 2-core machine (cores − 1); much of a test file waits (timers,
    // Redis, Postgres, MCP servers, time limits), so two at once took the unit tests from 170 s to 103 s here.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      // The unit test files of a worker share one module graph (isolate: false): importing it again for each of 190
      // files cost a third of their CPU (203 against 134 CPU-s, wall 116 against 80 s, with the isolated ones below).
      // The files that mock modules, stub globals or install process-wide state run isolated, each with fresh modules.
      { resolve: { alias }, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: UNIT_ISOLATED, isolate: false, ...unitTest } },
      { resolve: { alias }, test: { name: 'unit-isolated', include: UNIT_ISOLATED, ...unitTest } },
      // The Vue plugin lets DOM tests mount plain components (no Nuxt auto-imports) under jsdom.
      // The same for the DOM tests (123 against 77 CPU-s, wall 67 against 44 s): a worker's files share one jsdom window.
      { resolve: { alias }, plugins: [vue()], test: { name: 'dom', include: ['tests/dom/**/*.test.ts'], exclude: DOM_ISOLATED, isolate: false, ...domTest } },
      { resolve: { alias }, plugins: [vue()], test: { name: 'dom-isolated', include: DOM_ISOLATED, ...domTest } },
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
