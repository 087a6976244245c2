import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { cp, rename, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { defineNuxtModule, useLogger } from 'nuxt/kit'
import { ICONIFY_NAME } from '../server/utils/icons/icon-shards'
import { ICON_SHARD_FOLDER } from '../server/utils/icons/icon-store-location'
import { writeIconShards } from '../server/utils/icons/write-icon-shards'

/** @nuxt/icon's route, which its client asks for icons the page does not have yet. */
const ICON_ROUTE = '/api/_nuxt_icon/:collection'

/**
 * Every Iconify collection renders offline, also icons only known at run time (MCP tools, tools written in the
 * app, plugins added in dev): @nuxt/icon's server route is answered by `server/icons/icon-collection-route.ts`,
 * which reads `@iconify/json` lazily. A build cuts `@iconify/json` into gzip shards once per version (cached in
 * `node_modules/.cache/plugboard-icons/`) and copies them to `.output/server/iconify`; `npm run dev` reads
 * `@iconify/json` itself. Nothing of it goes into the server bundle, and icons named in the source stay in the
 * client bundle (@nuxt/icon's scan).
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:iconify-offline' },
  setup(_options, nuxt) {
    const logger = useLogger('plugboard:icons')
    const require = createRequire(join(nuxt.options.rootDir, 'package.json'))
    const packageFile = require.resolve('@iconify/json/package.json')
    const version = String((JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string }).version)
    const sourceFolder = join(dirname(packageFile), 'json')
    const prefixes = readdirSync(sourceFolder).filter(file => file.endsWith('.json'))
      .map(file => file.slice(0, -'.json'.length)).filter(prefix => ICONIFY_NAME.test(prefix))

    // NUXT_ICON_DATA_DIR: a shard folder elsewhere than beside the server entry.
    nuxt.options.runtimeConfig.iconDataDir ||= ''
    nuxt.options.runtimeConfig.iconSourceFolder = nuxt.options.dev ? sourceFolder : ''

    nuxt.hook('modules:done', () => {
      const handler = resolve(nuxt.options.rootDir, 'server/icons/icon-collection-route.ts')
      const existing = nuxt.options.serverHandlers.find(entry => entry.route === ICON_ROUTE)
      if (existing) existing.handler = handler
      else nuxt.options.serverHandlers.push({ route: ICON_ROUTE, handler })
      // `i-simple-icons-github` (dash form) is read as collection `simple-icons` only when the client knows it
      const icon = (nuxt.options.appConfig.icon ||= {}) as { collections?: string[] }
      icon.collections = [...new Set([...(icon.collections ?? []), ...prefixes])]
    })

    if (nuxt.options.dev) return
    nuxt.hook('nitro:init', (nitro) => {
      nitro.hooks.hook('compiled', async () => {
        const cache = resolve(nuxt.options.rootDir, 'node_modules/.cache/plugboard-icons', version)
        const started = performance.now()
        if (!existsSync(join(cache, 'index.json'))) {
          // cut into a folder of this process, then renamed: two builds at once never see half a cache
          const scratch = `${cache}.${process.pid}`
          const written = await writeIconShards(sourceFolder, scratch, version)
          await rm(cache, { recursive: true, force: true })
          await rename(scratch, cache)
          logger.info(`Cut @iconify/json ${version} into ${written.files} shards (${Math.round(written.bytes / 1e6)} MB) in ${Math.round(performance.now() - started)} ms`)
        }
        await cp(cache, join(nitro.options.output.serverDir, ICON_SHARD_FOLDER), { recursive: true })
        logger.success(`${prefixes.length} Iconify collections served from ${ICON_SHARD_FOLDER}/ (${Math.round(performance.now() - started)} ms)`)
      })
    })
  },
})
