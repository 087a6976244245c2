// ESLint: Nuxt's flat config (@nuxt/eslint-config, without the @nuxt/eslint module: no stylistic rules), the
// project's directories named the way Nuxt resolves them, plus the Layers table of ARCHITECTURE.md
// (eslint/boundaries.mjs) and the rule that keeps UI text in the catalogs (eslint/ui-text.mjs).
// `npm run lint`; `npm test` runs it first.
import { createConfigForNuxt } from '@nuxt/eslint-config/flat'
import layers from './eslint/boundaries.mjs'
import uiText from './eslint/ui-text.mjs'

const nuxt = createConfigForNuxt({
  features: { standalone: true },
  dirs: {
    pages: ['app/pages'],
    composables: ['app/composables', 'app/utils'],
    components: ['app/components'],
    componentsPrefixed: [],
    layouts: ['app/layouts'],
    plugins: ['app/plugins'],
    middleware: ['app/middleware'],
    modules: ['modules'],
    servers: [],
    root: [],
    src: ['app'],
  },
})

export default nuxt.append(
  // .nuxt-*: the build folders of `npm test`'s build and of the dev-server test (scripts/test.mjs)
  { ignores: ['bench/results/**', 'tests/fixtures/corpora/**', 'tool-registry.generated.json', '**/.nuxt-*'] },
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
  {
    // shiki and its grammars ship once, in the highlighting worker: Vite bundles a worker's imports apart from the
    // page's, so a page import of them (even a name from the same file) would put a second copy in the build.
    name: 'plugboard/shiki-in-the-worker',
    files: ['app/**'],
    ignores: ['app/utils/chat/markdown/highlight/highlight-tokens.ts', 'app/utils/chat/markdown/highlight/highlight-worker-handler.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{
        regex: '(^shiki(/|$))|highlight-tokens$',
        allowTypeImports: true,
        message: 'shiki runs only in the highlighting worker (app/utils/chat/markdown/highlight/highlight.worker.ts): ask it through highlight-client.ts.',
      }] }],
    },
  },
  ...layers,
  ...uiText,
)
