// ESLint: @nuxt/eslint's config for this project (.nuxt/eslint.config.mjs, written by `nuxt prepare`, which
// `npm install` runs), plus the Layers table of ARCHITECTURE.md (eslint/boundaries.mjs). `npm run lint`.
import withNuxt from './.nuxt/eslint.config.mjs'
import layers from './eslint/boundaries.mjs'

export default withNuxt(
  { ignores: ['bench/results/**', 'tests/fixtures/corpora/**', 'tool-registry.generated.json'] },
  ...layers,
)
