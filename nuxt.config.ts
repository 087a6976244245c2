// https://nuxt.com/docs/api/configuration/nuxt-config
export default defineNuxtConfig({
  // compatibilityVersion 4 makes `app/` the srcDir, so the root `plugins/` folder holds tool plugins,
  // not Nuxt plugins. tests/unit/nuxt-config.test.ts fails if this changes.
  future: { compatibilityVersion: 4 },
  compatibilityDate: '2025-07-15',
  modules: ['@nuxt/ui'],
  css: ['~/assets/css/main.css'],
  app: {
    head: {
      htmlAttrs: { lang: 'en' },
      title: 'Plugboard',
      meta: [{ name: 'description', content: 'A tool-calling chat app: plugins register LLM tools, you switch them on or off, the chat loop runs them.' }],
      link: [{ rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' }],
    },
  },
  ssr: false,
  telemetry: false,
  devtools: { enabled: false },
  ui: { fonts: false },
  // Icons offline: the app's server serves them from @iconify-json/lucide (tools pick icons at run time, so
  // a build-time scan cannot know them all); the common ones are also bundled into the client.
  icon: { provider: 'server', serverBundle: 'local', fallbackToApi: false, clientBundle: { scan: true, sizeLimitKb: 512 } },
  runtimeConfig: {
    // Server-only: never sent to the browser.
    openrouterApiKey: '',
    openrouterBaseUrl: 'https://openrouter.ai/api/v1',
    public: {
      defaultModel: 'openai/gpt-4o-mini',
      appUrl: 'https://github.com/plugboard/plugboard',
      appTitle: 'Plugboard',
    },
  },
  vite: {
    optimizeDeps: { include: ['dexie', 'markdown-it', 'dompurify', 'eventsource-parser', '@cfworker/json-schema'] },
    // The tool sandbox worker (app/utils/chat/sandbox) lazy-loads plugin files and their libraries, which needs
    // code splitting: Vite's default 'iife' worker format cannot split.
    worker: { format: 'es' },
  },
})
