import { defineNuxtModule } from 'nuxt/kit'

/**
 * The app's page names only the entry script. By default Nuxt also writes a `<link rel="prefetch">` for every
 * chunk the entry may import later (the MCP client, the in-memory database, the error pages, the lazy panels...),
 * and the browser downloads them all while the first screen is starting: over 100 KB gzip that the first screen
 * never runs. Chunks are fetched when they are first imported instead (the page fetches the message list's code
 * early when it opens a chat from the address).
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:first-load-hints' },
  setup(_options, nuxt) {
    if (nuxt.options.dev) return
    nuxt.hook('build:manifest', (manifest) => {
      for (const chunk of Object.values(manifest)) {
        chunk.prefetch = false
        if (chunk.isEntry) chunk.dynamicImports = []
      }
    })
  },
})
