// ESLint: @nuxt/eslint's config for this project (.nuxt/eslint.config.mjs, written by `nuxt prepare`, which
// `npm install` runs; no stylistic rules), plus the Layers table of ARCHITECTURE.md (eslint/boundaries.mjs).
// `npm run lint`; `npm test` runs it first.
import withNuxt from './.nuxt/eslint.config.mjs'
import layers from './eslint/boundaries.mjs'
import uiText from './eslint/ui-text.mjs'

export default withNuxt(
  { ignores: ['bench/results/**', 'tests/fixtures/corpora/**', 'tool-registry.generated.json'] },
  {
    name: 'plugboard/house-style',
    rules: {
      // Components with a `<script>` block for exported types before `<script setup>` read as imports after code.
      'import/first': 'off',
      // `catch {}` is how the code says "best effort" (closing, cleaning up); other empty blocks stay errors.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // `{}` is the neutral element of the type intersections defineTool's generics build.
      '@typescript-eslint/no-empty-object-type': 'off',
      // `void | Promise<void>` is how a handler says it may or may not be awaited.
      '@typescript-eslint/no-invalid-void-type': 'off',
      // Records keyed by tool name or argument are plain objects on purpose (JSON out); `delete` keeps them so.
      '@typescript-eslint/no-dynamic-delete': 'off',
      // Vue props named as the API they mirror (`baseURL`) and attributes grouped by meaning, not by kind.
      'vue/attribute-hyphenation': 'off',
      'vue/attributes-order': 'off',
      // An optional TypeScript prop is `undefined` when not given; a default would say nothing more.
      'vue/require-default-prop': 'off',
    },
  },
  {
    name: 'plugboard/tests',
    files: ['tests/**', 'bench/**'],
    rules: {
      // Hostile-input tests write control characters on purpose.
      'no-control-regex': 'off',
      // Tests hand-build odd values (bad arguments, fake SDK objects) that no type describes.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  ...layers,
  ...uiText,
)
