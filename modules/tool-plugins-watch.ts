import { resolve } from 'node:path'
import { defineNuxtModule } from 'nuxt/kit'

/**
 * `npm run dev`: a file added to, changed in or removed from the root `plugins/` folder takes effect without
 * restarting the dev server. The folder lies outside the app's srcDir, which is all Vite watches by itself, so
 * a new file never reached the `import.meta.glob` in app/plugins/tool-plugins.client.ts. Watching the folder lets
 * Vite re-run that glob and reload the page (and hot-replace edited files).
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:tool-plugins-watch' },
  setup(_options, nuxt) {
    if (!nuxt.options.dev) return
    const folder = resolve(nuxt.options.rootDir, 'plugins')
    nuxt.hook('vite:serverCreated', (server, { isClient }) => {
      if (isClient) server.watcher.add(folder)
    })
  },
})
