import { createHash } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { createResolver, defineNuxtModule } from 'nuxt/kit'

/** What the worker keeps at install (decision 0017): every script and stylesheet of the build, the icons. */
const PRECACHED = [/^_nuxt\/[^/]+\.(?:js|css)$/, /^icons\/[^/]+\.png$/, /^favicon\.svg$/]

/**
 * The build's own files: Vite names each after a hash of its content (`B8tgUf78.js`, `entry.BmXXjypF.css`), and
 * Nitro serves them as immutable. Their name is their version, so they are listed without a revision: Workbox then
 * fetches them with the browser's HTTP cache allowed, and what the first screen already loaded is not downloaded
 * again (a revision makes Workbox bypass that cache).
 */
const CONTENT_NAMED = /^_nuxt\/(?:[^/]*[.-])?[\w-]{8}\.(?:js|css)$/

/**
 * The files of the public folder the worker keeps at install. A file whose name does not change with its content
 * (the icons, the favicon) has a hash of its content as revision, so a changed one is downloaded again.
 */
export async function precacheManifest(publicDir: string) {
  const files = (await readdir(publicDir, { recursive: true }))
    .map(file => file.split('\\').join('/'))
    .filter(file => PRECACHED.some(pattern => pattern.test(file)))
    .sort()
  return Promise.all(files.map(async file => ({
    url: `/${file}`,
    revision: CONTENT_NAMED.test(file) ? null : createHash('sha256').update(await readFile(join(publicDir, file))).digest('hex').slice(0, 16),
  })))
}

/**
 * Writes `/sw.js`, the service worker of `app/pwa/service-worker.ts` bundled with the list of files it precaches,
 * once Nitro has written the public files (so the list is the build's own) and before it bundles the server (so the
 * server knows the file). Not in `nuxt dev`: there is no worker there, and the app registers none.
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:service-worker' },
  setup(_options, nuxt) {
    if (nuxt.options.dev) return
    const { resolve } = createResolver(import.meta.url)
    nuxt.hook('nitro:build:public-assets', async (nitro) => {
      const publicDir = nitro.options.output.publicDir
      const manifest = await precacheManifest(publicDir)
      const { outputFiles: [worker] } = await build({
        entryPoints: [resolve('../app/pwa/service-worker.ts')],
        write: false,
        bundle: true,
        format: 'iife',
        target: 'es2020',
        minify: true,
        // Workbox's function names stay in errors the worker logs (and the file says what it is).
        keepNames: true,
        legalComments: 'none',
        logLevel: 'warning',
        define: {
          '__PRECACHE_MANIFEST__': JSON.stringify(manifest),
          // Workbox's development logging is left out.
          'process.env.NODE_ENV': '"production"',
        },
      })
      const file = join(publicDir, 'sw.js')
      await writeFile(file, worker!.contents)
      // Nitro compressed the public files before this hook; the worker is sent compressed like them. (Cast: Nuxt's
      // type of the Nitro instance does not list this option.)
      if ((nitro.options as { compressPublicAssets?: unknown }).compressPublicAssets) {
        await writeFile(`${file}.br`, brotliCompressSync(worker!.contents))
        await writeFile(`${file}.gz`, gzipSync(worker!.contents))
      }
      nitro.logger.success(`Service worker: /sw.js precaches ${manifest.length} files`)
    })
  },
})
