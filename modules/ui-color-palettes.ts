import { readFileSync } from 'node:fs'
import { addVitePlugin, defineNuxtModule } from 'nuxt/kit'

/** The palettes Nuxt UI colours with unless the app config names others (its defaults). */
const NUXT_UI_DEFAULTS = ['green', 'blue', 'yellow', 'red', 'slate']
const VIRTUAL = '\0plugboard:ui-color-palettes'

/**
 * Nuxt UI's colour plugin writes each app colour as `var(--color-<name>-<shade>, <value>)` and takes the values from
 * `tailwindcss/colors`: all 26 palettes, in the first screen's script, for the two to seven the app uses. Here that
 * import gets only the palettes Nuxt UI's defaults and `app/app.config.ts` name. A colour switched at run time to
 * another palette still shows through Tailwind's variable, without a written-out fallback.
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:ui-color-palettes' },
  setup(_options, nuxt) {
    const appConfig = readFileSync(`${nuxt.options.srcDir}/app.config.ts`, 'utf8')
    const named = [...appConfig.matchAll(/\b(?:primary|secondary|success|info|warning|error|neutral)\s*:\s*['"](\w+)['"]/g)].map(match => match[1]!)
    const wanted = new Set([...NUXT_UI_DEFAULTS, ...named])
    addVitePlugin({
      name: 'plugboard:ui-color-palettes',
      enforce: 'pre',
      resolveId(source, importer) {
        return source === 'tailwindcss/colors' && importer?.includes('/@nuxt/ui/dist/runtime/plugins/colors') ? VIRTUAL : null
      },
      async load(id) {
        if (id !== VIRTUAL) return null
        const { default: colors } = await import('tailwindcss/colors') as { default: Record<string, unknown> }
        const kept = Object.fromEntries(Object.entries(colors).filter(([name]) => wanted.has(name)))
        return `export default ${JSON.stringify(kept)}`
      },
    }, { dev: false, server: false })
  },
})
