import { createRequire } from 'node:module'

/** The installed AI SDK's version (`v7.0.173`), so a table names the peer it was measured against. */
export const aiSdkVersion = `v${(createRequire(import.meta.url)('ai/package.json') as { version: string }).version}`
