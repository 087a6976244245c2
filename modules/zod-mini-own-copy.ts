import { addVitePlugin, defineNuxtModule } from 'nuxt/kit'

/** Marks the modules of zod's core that zod/mini loads: a module id of its own, so a chunk of its own. */
const MINI_COPY = '?zod-mini'
const ZOD_FILE = /\/node_modules\/zod\//
const MINI_ENTRY = /\/node_modules\/zod\/(?:mini|v4-mini|v4\/mini)\//

/**
 * The first screen checks its saved settings with zod/mini, and only a few of zod's checks; the MCP client, the
 * history importer and the plugins' `z` use zod in full, later. Both share zod's core modules, and a bundler puts
 * each module in one place, with every part that any chunk uses: the whole core landed in the first screen's script.
 * Here zod/mini gets its own copy of the core, trimmed to what it uses; the full core loads with the code that needs
 * it. Zod is made for copies side by side: its configuration (no `eval`) and registry live on `globalThis`, and a
 * schema's kind is checked by name, not by identity.
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:zod-mini-own-copy' },
  setup() {
    addVitePlugin({
      name: 'plugboard:zod-mini-own-copy',
      enforce: 'pre',
      async resolveId(source, importer, options) {
        if (!importer || !ZOD_FILE.test(importer) || (!importer.endsWith(MINI_COPY) && !MINI_ENTRY.test(importer))) return null
        const resolved = await this.resolve(source, importer.replace(MINI_COPY, ''), { ...options, skipSelf: true })
        if (!resolved || resolved.external || !ZOD_FILE.test(resolved.id) || resolved.id.includes('?')) return resolved
        return { ...resolved, id: `${resolved.id}${MINI_COPY}` }
      },
    }, { dev: false, server: false })
  },
})
