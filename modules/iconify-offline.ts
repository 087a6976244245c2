import { existsSync } from 'node:fs'
import { cp, rename, rm } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'
import { defineNuxtModule, useLogger } from 'nuxt/kit'
import { ICON_SHARD_FOLDER } from '../server/utils/icons/icon-store-location'
import { findInstalledCollections } from '../server/utils/icons/installed-collections'
import { writeIconShards } from '../server/utils/icons/write-icon-shards'

/** @nuxt/icon's route, which its client asks for icons the page does not have yet. */
const ICON_ROUTE = '/api/_nuxt_icon/:collection'

/**
 * Any Iconify icon renders, also icons only known at run time (MCP tools, tools written in the app, plugins added in
 * dev), and the browser only ever asks the app: @nuxt/icon's server route is answered by
 * `server/icons/icon-collection-route.ts`. The installed collections (the `@iconify-json/*` sets in package.json, or
 * every set when `@iconify/json` is installed) are served offline: a build cuts them into gzip shards once per
 * version set (cached in `node_modules/.cache/plugboard-icons/`) and copies them to `.output/server/iconify`;
 * `npm run dev` reads the packages' files. Any other collection Iconify publishes is fetched by the server from
 * `NUXT_ICONIFY_API_URL` and kept under `.data/icons`. Icons named in the source stay in the client bundle.
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:iconify-offline' },
  setup(_options, nuxt) {
    const logger = useLogger('plugboard:icons')
    const installed = findInstalledCollections(nuxt.options.rootDir)

    nuxt.options.runtimeConfig.iconDataDir ||= ''
    nuxt.options.runtimeConfig.iconifyApiUrl ??= 'https://api.iconify.design'
    nuxt.options.runtimeConfig.iconCacheDir ||= ''
    nuxt.options.runtimeConfig.iconSourceFiles = nuxt.options.dev ? installed.files : {}
    nuxt.options.runtimeConfig.iconKnownPrefixes = nuxt.options.dev ? installed.known : []

    nuxt.hook('modules:done', () => {
      const handler = resolve(nuxt.options.rootDir, 'server/icons/icon-collection-route.ts')
      const existing = nuxt.options.serverHandlers.find(entry => entry.route === ICON_ROUTE)
      if (existing) existing.handler = handler
      else nuxt.options.serverHandlers.push({ route: ICON_ROUTE, handler })
      // `i-simple-icons-github` (dash form) is read as collection `simple-icons` only when the client knows it
      const icon = (nuxt.options.appConfig.icon ||= {}) as { collections?: string[] }
      icon.collections = [...new Set([...(icon.collections ?? []), ...installed.known, ...Object.keys(installed.files)])]
    })

    if (nuxt.options.dev) return
    nuxt.hook('nitro:init', (nitro) => {
      nitro.hooks.hook('compiled', async () => {
        const key = createHash('sha256').update(installed.version).update(installed.known.join(',')).digest('hex').slice(0, 16)
        const cache = resolve(nuxt.options.rootDir, 'node_modules/.cache/plugboard-icons', key)
        const started = performance.now()
        if (!existsSync(join(cache, 'index.json'))) {
          // cut into a folder of this process, then renamed: two builds at once never see half a cache
          const scratch = `${cache}.${process.pid}`
          const written = await writeIconShards(installed.files, scratch, installed.version, installed.known)
          await rm(cache, { recursive: true, force: true })
          await rename(scratch, cache)
          logger.info(`Cut ${written.collections} icon collections into ${written.files} shards (${Math.round(written.bytes / 1e6)} MB) in ${Math.round(performance.now() - started)} ms`)
        }
        await cp(cache, join(nitro.options.output.serverDir, ICON_SHARD_FOLDER), { recursive: true })
        logger.success(`${Object.keys(installed.files).length} icon collections served offline from ${ICON_SHARD_FOLDER}/, ${installed.known.length} known to the Iconify API (${Math.round(performance.now() - started)} ms)`)
      })
    })
  },
})
