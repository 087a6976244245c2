// ARCHITECTURE.md's Layers table (eslint/layers.mjs) as eslint-plugin-boundaries settings and policies.
import boundaries from 'eslint-plugin-boundaries'
import { layers } from './layers.mjs'

/** The element type of a row: its folder without backquotes. */
export const layerType = layer => layer.folder.replaceAll('`', '')

// `plugins/` may import two files of `app/utils/chat`: they are an element of their own that follows
// `app/utils/chat`'s policy, listed before it so they match first.
const pluginApiFiles = { '`~/utils/chat/plugin-api`': 'app/utils/chat/plugin-api.ts', '`~/utils/chat/tools`': 'app/utils/chat/tools.ts' }
const pluginApiType = file => `app/utils/chat: ${file}`

const elements = layers.flatMap(layer => [
  ...(layer.folder === '`app/utils/chat`'
    ? Object.values(pluginApiFiles).map(file => ({ type: pluginApiType(file), pattern: file, mode: 'full' }))
    : []),
  { type: layerType(layer), pattern: layer.files, mode: 'full' },
])
const typesOfRow = layer => elements.filter(element => element.type === layerType(layer)
  || (layer.folder === '`app/utils/chat`' && element.type.startsWith('app/utils/chat: '))).map(element => element.type)
const typesUnder = prefix => layers.filter(layer => layerType(layer).startsWith(prefix)).flatMap(typesOfRow)

/**
 * One word of a row's `mayImport` → the element types or packages it allows.
 * @param {string} word
 * @returns {{ types?: string[], packages?: string[], core?: boolean, all?: boolean }}
 */
export function readWord(word) {
  const bare = word.replace(/ \(.*\)$/, '')
  if (bare === 'nothing') return {}
  if (bare === 'everything') return { all: true }
  if (bare === 'shared') return { types: typesUnder('shared/') }
  if (bare === 'server/utils') return { types: typesUnder('server/utils') }
  if (bare === 'everything in app') return { types: typesUnder('app/') }
  if (bare === 'app/utils') return { types: typesUnder('app/utils') }
  if (bare === 'composables') return { types: typesUnder('app/composables') }
  if (bare === 'node') return { core: true }
  if (pluginApiFiles[bare]) return { types: [pluginApiType(pluginApiFiles[bare])] }
  const row = layers.find(layer => layerType(layer) === bare.replaceAll('`', ''))
  if (row) return { types: typesOfRow(row) }
  if (/^(?:@[\w.-]+\/)?[a-z][\w.-]*$/.test(bare)) return { packages: [bare] }
  throw new Error(`ARCHITECTURE.md's Layers table: "${word}" names no row, package or known word`)
}

const packageOrigins = ['external', 'core']
const policies = layers.flatMap((layer) => {
  const words = layer.mayImport.split(', ').map(readWord)
  const from = { element: { types: { anyOf: typesOfRow(layer) } } }
  if (words.some(word => word.all)) {
    const allTypes = [...new Set(elements.map(element => element.type))]
    return [{ from, allow: { to: { element: { types: { anyOf: allTypes } } } } }, { from, allow: { to: { module: { origin: packageOrigins } } } }]
  }
  const types = [...new Set([...typesOfRow(layer), ...words.flatMap(word => word.types ?? [])])]
  const rowPolicies = [{ from, allow: { to: { element: { types: { anyOf: types } } } } }]
  if (!layer.checkPackages) rowPolicies.push({ from, allow: { to: { module: { origin: packageOrigins } } } })
  else {
    const packages = words.flatMap(word => word.packages ?? [])
    for (const source of packages) rowPolicies.push({ from, allow: { to: { module: { origin: 'external', source } } } })
    if (words.some(word => word.core)) rowPolicies.push({ from, allow: { to: { module: { origin: 'core' } } } })
  }
  return rowPolicies
})

/** @type {import('eslint').Linter.Config[]} */
export default [{
  name: 'plugboard/layers',
  files: ['app/**/*.{ts,vue,js,mjs}', 'server/**/*.{ts,js,mjs}', 'shared/**/*.{ts,js,mjs}', 'plugins/**/*.ts', 'modules/**/*.ts', 'scripts/**/*.{ts,mjs}'],
  plugins: { boundaries },
  settings: {
    'boundaries/elements': elements,
    'boundaries/legacy-warnings': false,
    'import/resolver': {
      typescript: { project: '.nuxt/tsconfig.json' },
      node: true,
    },
  },
  rules: {
    'boundaries/dependencies': ['error', { default: 'disallow', checkAllOrigins: true, policies }],
  },
}]
