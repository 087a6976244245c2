import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { addVitePlugin, defineNuxtModule } from 'nuxt/kit'

/**
 * The files of the first screen that name icons (bench/ui/first-load-bytes.ts lists what the first screen loads).
 * An icon of the first screen missing here still shows: fetched from the app's server, a moment later.
 */
const FIRST_SCREEN_FILES = [
  'app/error.vue',
  'app/pages/index.vue',
  'app/components/chat/ChatAppUpdateNotice.vue',
  'app/components/chat/ChatAttachmentThumb.vue',
  'app/components/chat/ChatColorModeButton.vue',
  'app/components/chat/ChatComposer.vue',
  'app/components/chat/ChatComposerAttachments.vue',
  'app/components/chat/ChatOfflineNotice.vue',
  'app/components/chat/ChatProviderBadge.vue',
  'app/components/chat/ChatThreadList.vue',
  'app/components/chat/ChatToolIcon.vue',
  'app/components/chat/ChatToolsButton.vue',
  'app/composables/composer/useComposerSend.ts',
  'shared/tools/definition/registered-tool-definition.ts',
]
const BUNDLE = /nuxt-icon-client-bundle\.mjs$/
const REST = 'virtual:plugboard-icon-bundle-rest'
const REST_ID = `\0${REST}`

type Collection = { prefix: string, icons: Record<string, unknown> }

/**
 * @nuxt/icon bundles every icon the source names (about a hundred) into the first screen's script. Here the bundle
 * keeps the icons of the first screen; the others become a chunk fetched once the first screen is ready (or after 5 s
 * on a page that never says so), so menus and dialogs opened later find theirs in place, as before.
 */
export default defineNuxtModule({
  meta: { name: 'plugboard:icon-bundle-first-screen' },
  setup(_options, nuxt) {
    // Component tests mount one component with no first screen to wait for: they keep every icon at once.
    if (process.env.VITEST) return
    const firstScreen = new Set(FIRST_SCREEN_FILES.flatMap(file => [...readFileSync(resolve(nuxt.options.rootDir, file), 'utf8')
      .matchAll(/\bi-([a-z0-9]+)-([a-z0-9-]+)|\b([a-z0-9]+):([a-z0-9-]+)/g)]
      .map(match => match[1] ? `${match[1]}:${match[2]}` : `${match[3]}:${match[4]}`)))
    let rest: Collection[] = []
    addVitePlugin({
      name: 'plugboard:icon-bundle-first-screen',
      enforce: 'post',
      resolveId: source => (source === REST ? REST_ID : null),
      load: id => (id === REST_ID ? `export default ${JSON.stringify(rest)}` : null),
      transform(code, id) {
        const json = BUNDLE.test(id) ? /JSON\.parse\(("(?:[^"\\]|\\.)*")\)/.exec(code)?.[1] : undefined
        if (!json) return null
        const collections = JSON.parse(JSON.parse(json)) as Collection[]
        const split = (first: boolean) => collections.map(({ prefix, icons }) => ({
          prefix,
          icons: Object.fromEntries(Object.entries(icons).filter(([name]) => firstScreen.has(`${prefix}:${name}`) === first)),
        })).filter(collection => Object.keys(collection.icons).length)
        rest = split(false)
        return [
          'let _initialized = false',
          'const add = (addIcon, collections) => {',
          '  for (const collection of collections) for (const [name, data] of Object.entries(collection.icons)) addIcon(`${collection.prefix}:${name}`, data)',
          '}',
          'export function init(addIcon) {',
          '  if (_initialized) return',
          '  _initialized = true',
          `  add(addIcon, ${JSON.stringify(split(true))})`,
          `  let started = false`,
          `  const start = () => { if (!started) { started = true; import(${JSON.stringify(REST)}).then(module => add(addIcon, module.default)) } }`,
          `  if (performance.getEntriesByName('plugboard:ready').length) return start()`,
          `  new PerformanceObserver((list, observer) => { if (list.getEntriesByName('plugboard:ready').length) { observer.disconnect(); start() } }).observe({ type: 'mark' })`,
          `  setTimeout(start, 5000)`,
          '}',
        ].join('\n')
      },
    }, { dev: false, server: false })
  },
})
