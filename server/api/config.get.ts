import { buildServerConfig } from '../utils/server-config'

/** GET /api/config: what the browser needs at start-up. Never contains the key, only whether there is one. */
export default defineEventHandler(event => buildServerConfig(useRuntimeConfig(event)))
