import { addVitePlugin, defineNuxtModule } from 'nuxt/kit'

const STUB = '\0plugboard:mathjs-outside-the-sandbox'

/**
 * The calculator (plugins/calculate.ts, `sandbox: 'worker'`) runs only in the tool sandbox worker in the browser: the
 * registry replaces its handler on the page with one that posts to the worker. Yet its lazy `import('mathjs')` made the
 * page's build emit a second, never-loaded copy of mathjs (649 KB, 1 MB on disk with its .gz and .br) beside the
 * worker's. In the page's client build only, mathjs resolves to a module that says where the calculator runs; the
 * worker's build (Vite's `worker.plugins`, not these) and the server's (Nitro) keep the real library.
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:calculator-in-worker-only' },
  setup() {
    addVitePlugin({
      name: 'plugboard:calculator-in-worker-only',
      enforce: 'pre',
      resolveId(source, importer) {
        if (source !== 'mathjs' || !importer?.includes('/plugins/calculate.ts')) return null
        return STUB
      },
      load(id) {
        if (id !== STUB) return null
        return 'const outside = () => { throw new Error("The calculator runs in the tool sandbox worker, not on the page.") }\n'
          + 'export const create = outside\nexport const all = {}\n'
      },
    }, { dev: false, server: false })
  },
})
