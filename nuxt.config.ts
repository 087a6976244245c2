// https://nuxt.com/docs/api/configuration/nuxt-config

/** The Nitro part of the config (its type lists neither compressPublicAssets nor headers in routeRules: cast). */
type NitroOptions = NonNullable<Parameters<typeof defineNuxtConfig>[0]['nitro']>

export default defineNuxtConfig({
  // compatibilityVersion 4 makes `app/` the srcDir, so the root `plugins/` folder holds tool plugins,
  // not Nuxt plugins. tests/unit/nuxt-config.test.ts fails if this changes.
  future: { compatibilityVersion: 4 },
  compatibilityDate: '2025-07-15',
  // `npm test` builds in a folder of its own while vitest's component tests and the type check read `.nuxt`, and the
  // dev-server test runs `nuxt dev` in another, so no step rewrites what another reads (scripts/test.mjs).
  ...(process.env.PLUGBOARD_NUXT_BUILD_DIR ? { buildDir: process.env.PLUGBOARD_NUXT_BUILD_DIR } : {}),
  modules: ['@nuxt/ui', 'nuxt-auth-utils'],
  css: ['~/assets/css/main.css'],
  app: {
    head: {
      htmlAttrs: { lang: 'en' },
      title: 'Plugboard',
      meta: [
        { name: 'description', content: 'A tool-calling chat app: plugins register LLM tools, you switch them on or off, the chat loop runs them.' },
        // The browser's title bar follows the colour scheme (the page's background in light and dark).
        { name: 'theme-color', media: '(prefers-color-scheme: light)', content: '#ffffff' },
        { name: 'theme-color', media: '(prefers-color-scheme: dark)', content: '#18181b' },
      ],
      link: [
        { rel: 'icon', type: 'image/svg+xml', href: '/favicon.svg' },
        { rel: 'apple-touch-icon', href: '/icons/apple-touch-icon-180.png' },
        { rel: 'manifest', href: '/manifest.webmanifest' },
      ],
    },
  },
  ssr: false,
  // The header's links (catalog, audit) fetch their page when pointed at or focused, not when they appear: the
  // first screen loads only what it shows.
  experimental: { defaults: { nuxtLink: { prefetchOn: { visibility: false, interaction: true } } } },
  telemetry: false,
  // `PLUGBOARD_SOURCEMAP=1 nuxt build`: source maps beside the client's chunks (not linked from them), so
  // bench/ui/first-load-bytes.ts can say which package or file the first load's bytes come from. Off by default:
  // the maps would be served to anyone. The server's map (3 MB) is off too: Node reads it only when started with
  // --enable-source-maps, and a debugging build sets PLUGBOARD_SOURCEMAP.
  sourcemap: process.env.PLUGBOARD_SOURCEMAP ? { client: 'hidden' as const, server: true } : { client: false, server: false },
  devtools: { enabled: false },
  ui: { fonts: false },
  // Sessions only on the server (server/utils/security): the app asks /api/auth/status itself.
  // WebAuthn on for accounts with passkeys (NUXT_ACCOUNTS=passkeys); its browser half is imported by the sign-in
  // page and Settings → Account only, never by the first screen.
  auth: { loadStrategy: 'none', webAuthn: true },
  // Icons: any Iconify icon, since tools pick icons at run time, always through the app's own server
  // (modules/iconify-offline.ts answers @nuxt/icon's route): the installed @iconify-json/* sets offline, any other set
  // fetched by the server from NUXT_ICONIFY_API_URL and cached. The icons named in the source are bundled into the
  // client. The browser never asks the Iconify API itself.
  // `mode: 'svg'`: inline SVG. The default CSS mode scans every stylesheet rule and adds a <style> per icon while
  // the first screen renders (a style recalculation each), which made the first render a long task.
  icon: { mode: 'svg', provider: 'server', serverBundle: false, fallbackToApi: false, clientBundle: { scan: true, sizeLimitKb: 512 } },
  runtimeConfig: {
    /** Where the server fetches icons of collections not installed (an Iconify API mirror); '' = installed sets only. */
    iconifyApiUrl: 'https://api.iconify.design',
    /** Where fetched icons are kept across restarts. @default '.data/icons' */
    iconCacheDir: '',
    // Server-only: never sent to the browser. Each is set at start-up by NUXT_<NAME> (README "Configuration").
    openrouterApiKey: '',
    openrouterBaseUrl: 'https://openrouter.ai/api/v1',
    /** Comma-separated model ids the proxy accepts; empty = any model. */
    openrouterModels: '',
    /** Cap on max_tokens of proxied requests; 0 = no cap. */
    openrouterMaxTokens: 0,
    /** Let requests on the server's key use OpenRouter's web search (`plugins`, `web_search_options`, `:online`). */
    openrouterAllowWebSearch: false,
    /** Let requests on the server's key choose providers (`provider`, `:nitro` models). */
    openrouterAllowProviderRouting: false,
    /** When set, every /api route but signing in needs this password. Ignored when accounts are on. */
    accessPassword: '',
    /**
     * `off` (default): one person, browser sessions. `passkeys`: people sign up and in with passkeys; the first
     * account is the admin, who invites the others. Wins over accessPassword.
     */
    accounts: 'off',
    /** With accounts: the site's origin passkeys are bound to (`https://chat.example.com`); empty = the request's own. */
    accountsOrigin: '',
    /** Model requests a minute, per session and per IP. */
    rateLimitPerMinute: 30,
    /** Body limit of chat routes, in bytes (2 MB). */
    maxBodyBytes: 2 * 1024 * 1024,
    /** Body limit of the routes that carry images to a model (OpenRouter proxy, server-run chats), in bytes (12 MB). */
    maxImageBodyBytes: 12 * 1024 * 1024,
    /** How long the proxy waits for the upstream's first byte, and between bytes of a stream. */
    upstreamTimeoutMs: 60_000,
    /** Behind a reverse proxy: trust X-Forwarded-For/-Host/-Proto, from the proxies of trustedProxies only. */
    trustProxy: false,
    /** The proxies believed: addresses/CIDR ranges (empty = loopback and private ranges) or a number of hops. */
    trustedProxies: '',
    /** Event streams (GET /api/chats/:id/events) one session may hold open on an instance; 4 times as many per IP. */
    maxEventStreamsPerSession: 32,
    /** Comma-separated hosts (`host` or `host:port`) fetch_web_page may reach although they are not public. */
    fetchAllowedHosts: '',
    /** Comma-separated hosts (`host` or `host:port`) the MCP relay (/api/mcp/proxy) may reach; empty = relay off. */
    mcpAllowedHosts: '',
    /** The operator's MCP servers, JSON `[{ "name", "url", "headers"? }]`: their tools become server tools. */
    mcpServers: '',
    /** A tool-registry.generated.json (npm run registry:flash) whose tools GET /api/tools lists, without handlers. */
    toolRegistryFile: '',
    /**
     * Empty: background jobs and rate limits live in this process. Set (`redis://...`): jobs go through BullMQ and
     * Redis Streams and rate limits count in Redis, so several instances behind one Redis share them.
     */
    redisUrl: '',
    /**
     * Empty: the server's database is PGlite (Postgres in WebAssembly) in `databaseDir`, one process's own. Set
     * (`postgres://...`): a real Postgres, which several instances share.
     */
    databaseUrl: '',
    /** The embedded database's folder. @default '.data/pglite' */
    databaseDir: '',
    /** `on`: browsers sync their chats with the server's database (docs/decisions/0022-sync.md). @default off */
    sync: '',
    /**
     * With Redis: how long a worker's claim on a job lasts without renewal, and how often workers look for lapsed
     * claims (a dead instance's jobs), in ms. 0: the queue's defaults (30 s each).
     */
    jobLockDurationMs: 0,
    jobStalledIntervalMs: 0,
    /**
     * Background chats one instance runs at once; more wait in the queue. A chat waiting for an approval or a tab is
     * parked and does not count. 0: the default (10).
     */
    jobConcurrency: 0,
    /** How long a background chat waits for an approval or a tab before the call ends without an answer, in ms. 0: 10 min. */
    jobWaitTimeoutMs: 0,
    /**
     * Unfinished background chats (and workflow runs) one session / one IP may have, and the bytes their state may
     * hold; past either, POST /api/chats answers 429. 0: the defaults (10 and 30 chats, 16 MB and 48 MB).
     */
    jobMaxActivePerSession: 0,
    jobMaxActivePerIp: 0,
    jobMaxBytesPerSession: 0,
    jobMaxBytesPerIp: 0,
    // nuxt-auth-utils' sealed cookie session; the seal secret comes from NUXT_SESSION_PASSWORD or .data/ (see
    // server/plugins/00.session-secret.ts).
    session: {
      name: 'plugboard-session',
      password: '',
      maxAge: 60 * 60 * 24 * 30,
      cookie: { sameSite: 'lax', httpOnly: true, secure: false },
    },
    public: {
      defaultModel: 'openai/gpt-4o-mini',
      appUrl: 'https://github.com/plugboard/plugboard',
      appTitle: 'Plugboard',
      /**
       * Replacements for origins the tool plugins declare (`connects`), `declared=replacement` comma-separated,
       * e.g. a local host that answers like Open-Meteo in tests. The page's policy and the tools' fetch follow it.
       */
      connectOriginOverrides: '',
      // The origin MCP Apps are framed from (docs/decisions/0018-mcp-apps-sandbox-origin.md); empty: the other
      // loopback name on a loopback host, none elsewhere.
      mcpAppsSandboxOrigin: '',
    },
  },
  // Static assets are served precompressed (brotli, gzip) when the browser accepts it; hashed files are cached
  // for a year by Nuxt already. (Cast: the Nitro part of the config type lists neither compressPublicAssets nor headers in routeRules.)
  nitro: {
    compressPublicAssets: { gzip: true, brotli: true },
    minify: true,
    // The database's SQL migrations travel inside the build (server/plugins/04.database.ts reads them).
    serverAssets: [{ baseName: 'database-migrations', dir: 'utils/database/migrations' }],
    routeRules: {
      // The browser checks for a new version of the service worker against the server each time, never a cached copy.
      '/sw.js': { headers: { 'cache-control': 'no-cache' } },
      '/manifest.webmanifest': { headers: { 'content-type': 'application/manifest+json', 'cache-control': 'no-cache' } },
    },
  } as NitroOptions,
  $production: {
    nitro: {
      // Bundled into the server's code (minified, only what is used) rather than copied with all their files: mathjs
      // (1,000 files, 5.6 MB; only the calculator loads it, in server-run chats), drizzle-orm (every dialect's code,
      // 0.5 MB) and re2js. A package that an external one also imports (zod, via the MCP SDK) stays external: inlining
      // it would ship it twice. In the build only: `nuxt dev` reads them from node_modules, and bundling them there made
      // its server build 16-27 s instead of 6-7 s (the first page 23-36 s after start instead of 12-13 s).
      externals: { inline: ['mathjs', 'drizzle-orm', 're2js'] },
    } as NitroOptions,
  },
  vite: {
    optimizeDeps: { include: ['dexie', 'markdown-it', 'dompurify', 'eventsource-parser', '@cfworker/json-schema', 're2js'] },
    // reka-ui (under Nuxt UI) asks for VueUse 12 and gets a copy of its own in node_modules: one VueUse, the app's, in
    // the client instead of two in the first screen's script (every function reka-ui uses is in both).
    resolve: { dedupe: ['@vueuse/core', '@vueuse/shared'] },
    // The tool sandbox worker (app/utils/chat/sandbox) lazy-loads plugin files and their libraries, which needs
    // code splitting: Vite's default 'iife' worker format cannot split.
    worker: { format: 'es' },
    // A lazy chunk's scripts are not announced with <link rel="modulepreload"> when it is imported (its CSS still
    // is): appending them made each import one task of up to 58 ms on a busy machine and cost 15–25 ms more main-thread
    // CPU per open (bench/ui/open-cpu.ts). The price: a chunk's own imports are asked for once it has arrived (one
    // round trip more per lazy import; Rollup hoists every transitive import into the chunk, so only one).
    build: { modulePreload: false },
  },
})
