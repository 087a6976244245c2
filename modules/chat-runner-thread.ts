import { join, resolve } from 'node:path'
import { defineNuxtModule, useLogger } from '@nuxt/kit'
import { build } from 'esbuild'

/**
 * Builds the background chats' runner thread (server/utils/background-jobs/runner/runner-thread/runner-thread.ts) into
 * `.output/server/chat-runner-thread.mjs`, beside the server entry, once Nitro has compiled: a worker thread needs a
 * file of its own, and Nitro bundles one entry. bullmq and ioredis stay outside the bundle, read from the
 * `node_modules` Nitro traced for the server (the same copies). `npm run dev` builds none: chats run on the main
 * thread there.
 */
export default defineNuxtModule({
  meta: { name: 'chat-runner-thread' },
  setup(_options, nuxt) {
    if (nuxt.options.dev) return
    const logger = useLogger('chat-runner-thread')
    nuxt.hook('nitro:init', (nitro) => {
      nitro.hooks.hook('compiled', async () => {
        const started = performance.now()
        const outfile = join(nitro.options.output.serverDir, 'chat-runner-thread.mjs')
        await build({
          entryPoints: [resolve(nuxt.options.rootDir, 'server/utils/background-jobs/runner/runner-thread/runner-thread.ts')],
          outfile,
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          tsconfig: join(nuxt.options.buildDir, 'tsconfig.server.json'),
          external: ['bullmq', 'ioredis'],
          // Bundled CommonJS dependencies call require().
          banner: { js: 'import { createRequire as __createRequire } from \'node:module\'; const require = __createRequire(import.meta.url);' },
          logLevel: 'warning',
        })
        logger.success(`Runner thread built (${Math.round(performance.now() - started)} ms)`)
      })
    })
  },
})
