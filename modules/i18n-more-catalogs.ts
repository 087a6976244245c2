import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { generateJSON } from '@intlify/bundle-utils'
import { addTypeTemplate, addVitePlugin, defineNuxtModule } from 'nuxt/kit'

/**
 * The rest of each language's UI text (`i18n/more/<code>.json`: Settings, MCP servers, the audit log, the tool
 * catalog…), kept out of the first screen's catalog (`i18n/locales/<code>.json`, app/composables/useI18n.ts) and
 * fetched after it (app/composables/more-messages.ts). Each file becomes the module
 * `virtual:plugboard-more-catalog/<code>`, its messages checked at build by vue-i18n's compiler and shipped as
 * plain JSON, read in the browser by app/utils/i18n-message.ts (no eval under the strict CSP).
 */
const PREFIX = 'virtual:plugboard-more-catalog/'
const RESOLVED = `\0${PREFIX}`

export default defineNuxtModule({
  meta: { name: 'plugboard:i18n-more-catalogs' },
  setup(_options, nuxt) {
    const folder = resolve(nuxt.options.rootDir, 'i18n/more')
    const production = !nuxt.options.dev
    addVitePlugin({
      name: 'plugboard:i18n-more-catalogs',
      resolveId: id => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
      async load(id) {
        if (!id.startsWith(RESOLVED)) return undefined
        const code = id.slice(RESOLVED.length)
        // a language code names a file of the folder, nothing else
        if (!/^[a-z]{2}(?:-[A-Z]{2})?$/.test(code)) throw new Error(`No UI text catalog is named "${code}".`)
        const file = resolve(folder, `${code}.json`)
        this.addWatchFile(file)
        const source = await readFile(file, 'utf8')
        // every message is checked as vue-i18n's compiler would read it, then shipped as plain JSON: the browser
        // fills it in with app/utils/i18n-message.ts, which reads only that syntax
        generateJSON(source, {
          type: 'plain',
          filename: file,
          env: production ? 'production' : 'development',
          jit: true,
          strictMessage: true,
          escapeHtml: false,
          forceStringify: false,
          onError: (message: string) => {
            throw new Error(`${file}: ${message}`)
          },
        })
        return `export default ${JSON.stringify(JSON.parse(source))}\n`
      },
    })
    addTypeTemplate({
      filename: 'types/plugboard-more-catalogs.d.ts',
      getContents: () => `declare module '${PREFIX}*' {\n  const messages: Record<string, unknown>\n  export default messages\n}\n`,
    })
  },
})
