// The Layers table of ARCHITECTURE.md as data: `folder` and `mayImport` are the table's first and last columns,
// word for word (tests/unit/architecture-layers.test.ts fails when they differ), and eslint.config.mjs turns each
// row into eslint-plugin-boundaries policies. `files` says which files a row's folder covers; the more specific
// rows come first, because a file belongs to the first row whose files match it.
//
// The words of `mayImport`: `nothing`; `shared` (any shared/ row); `server/utils` (any server/utils row);
// `everything in app` (any app/ row); `everything`; a row's folder (`app/db`, `composables`, `plugins/`); a file
// in backquotes (`~/utils/chat/plugin-api`); anything else is a package (`node` for Node's built-ins). A file may
// always import its own row. Imports are read after `~`, `~~` and `#shared` are resolved (.nuxt/tsconfig.json).
// Nuxt's auto-imports (server/utils, composables) are not import statements, so they are not checked.

/** @typedef {{ folder: string, mayImport: string, files: string[], checkPackages?: boolean }} Layer */

/** @type {Layer[]} */
export const layers = [
  { folder: '`shared/types`', mayImport: 'nothing', files: ['shared/types/**'], checkPackages: true },
  { folder: '`shared/security`', mayImport: 'nothing', files: ['shared/security/**'], checkPackages: true },
  { folder: '`shared/errors`', mayImport: 'shared', files: ['shared/errors/**'], checkPackages: true },
  { folder: '`shared/stream`', mayImport: 'shared, eventsource-parser', files: ['shared/stream/**'], checkPackages: true },
  { folder: '`shared/tools/rich-definition`', mayImport: 'shared', files: ['shared/tools/rich-definition/**'], checkPackages: true },
  { folder: '`shared/tools/tool-search`', mayImport: 'shared, minisearch', files: ['shared/tools/tool-search/**'], checkPackages: true },
  { folder: '`shared/tools`', mayImport: 'shared, re2js, @cfworker/json-schema, zod', files: ['shared/tools/**'], checkPackages: true },
  { folder: '`shared/history`', mayImport: 'shared', files: ['shared/history/**'], checkPackages: true },
  { folder: '`shared/mcp`', mayImport: 'shared, @modelcontextprotocol/sdk, @cfworker/json-schema, zod', files: ['shared/mcp/**'], checkPackages: true },
  { folder: '`shared/share`', mayImport: 'shared, zod', files: ['shared/share/**'], checkPackages: true },
  { folder: '`shared/loop`', mayImport: 'shared', files: ['shared/loop/**'], checkPackages: true },
  { folder: '`shared/sync`', mayImport: 'shared, zod', files: ['shared/sync/**'], checkPackages: true },
  { folder: '`app/utils/chat/user-tools`', mayImport: 'shared, vue, quickjs-emscripten-core, app/utils/chat, app/db', files: ['app/utils/chat/user-tools/**'] },
  { folder: '`app/utils/chat/catalog`', mayImport: 'shared, vue, app/utils/chat, app/db', files: ['app/utils/chat/catalog/**'] },
  { folder: '`app/utils/chat/documents`', mayImport: 'shared, app/db, minisearch, unpdf', files: ['app/utils/chat/documents/**'] },
  { folder: '`app/utils/chat`', mayImport: 'shared, vue, app/db', files: ['app/utils/chat/**'] },
  { folder: '`app/utils/sync`', mayImport: 'shared, vue, app/db, dexie', files: ['app/utils/sync/**'] },
  { folder: '`app/db`', mayImport: 'shared, dexie', files: ['app/db/**'] },
  { folder: '`app/utils/audit`', mayImport: 'app/db', files: ['app/utils/audit/**'] },
  { folder: '`app/composables`', mayImport: 'shared, everything in app', files: ['app/composables/**'] },
  { folder: '`app/components/chat`', mayImport: 'shared, composables, app/utils, app/db, app/components', files: ['app/components/chat/**'] },
  { folder: '`app/components`', mayImport: 'shared, composables, app/utils, app/db', files: ['app/components/**'] },
  { folder: '`server/api/chats`', mayImport: 'shared, server/utils', files: ['server/api/chats/**'] },
  { folder: '`server/api/workflows`', mayImport: 'shared, server/utils', files: ['server/api/workflows/**'] },
  { folder: '`server/api/tools`', mayImport: 'shared, server/utils', files: ['server/api/tools/**'] },
  { folder: '`server/api`', mayImport: 'shared, server/utils', files: ['server/api/**'] },
  { folder: '`server/middleware/api-guard.ts`', mayImport: 'server/utils', files: ['server/middleware/api-guard.ts'] },
  { folder: '`server/plugins`', mayImport: 'shared, server/utils', files: ['server/plugins/**'] },
  { folder: '`server/utils/chat`', mayImport: 'shared, server/utils, `plugins/` (hybrid tools)', files: ['server/utils/chat/**'] },
  { folder: '`server/utils/net`', mayImport: 'node', files: ['server/utils/net/**'] },
  { folder: '`server/utils/icons`, `server/icons/`, `modules/iconify-offline.ts`', mayImport: 'node, @iconify/utils', files: ['server/utils/icons/**', 'server/icons/**', 'modules/iconify-offline.ts'] },
  { folder: '`server/utils/http`', mayImport: 'shared/security, shared/errors, h3, node', files: ['server/utils/http/**'] },
  { folder: '`server/utils/security`', mayImport: 'shared, server/utils/http, server/utils/redis, server/utils/accounts, ipaddr.js', files: ['server/utils/security/**'] },
  { folder: '`server/utils/accounts`', mayImport: 'server/utils, drizzle-orm', files: ['server/utils/accounts/**'] },
  { folder: '`server/utils/background-jobs`', mayImport: 'shared, server/utils, ioredis, bullmq, unstorage', files: ['server/utils/background-jobs/**'] },
  { folder: '`server/utils/workflows`', mayImport: 'shared, server/utils, drizzle-orm', files: ['server/utils/workflows/**'] },
  { folder: '`server/utils/mcp`', mayImport: 'shared, server/utils', files: ['server/utils/mcp/**'] },
  { folder: '`server/utils/database`', mayImport: 'shared, server/utils, drizzle-orm, @electric-sql/pglite, pg', files: ['server/utils/database/**'] },
  { folder: '`server/utils/sync`', mayImport: 'shared, server/utils, drizzle-orm, ioredis', files: ['server/utils/sync/**'] },
  { folder: '`server/utils/redis`', mayImport: 'ioredis', files: ['server/utils/redis/**'] },
  { folder: '`server/utils/openrouter-*`', mayImport: 'shared, server/utils/http, zod', files: ['server/utils/openrouter-*'] },
  { folder: '`server/utils` (the rest)', mayImport: 'shared, server/utils', files: ['server/utils/**'] },
  { folder: '`server/` (the rest)', mayImport: 'shared, server/utils', files: ['server/**'] },
  { folder: '`app/` (the rest: pages, plugins, middleware, other components and utils)', mayImport: 'shared, everything in app', files: ['app/**'] },
  { folder: '`plugins/`', mayImport: '`~/utils/chat/plugin-api`, `~/utils/chat/tools`, app/db (`search_chat_history`), `app/utils/chat/documents` (`search_documents`)', files: ['plugins/**'] },
  { folder: '`scripts/flash-tool-registry.ts`', mayImport: 'everything', files: ['scripts/flash-tool-registry.ts'] },
]
