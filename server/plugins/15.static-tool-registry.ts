import { loadStaticToolRegistry } from '../utils/chat/static-tool-registry'

/** Reads NUXT_TOOL_REGISTRY_FILE's static tool definitions once at start-up (listed in GET /api/tools, never run). */
export default defineNitroPlugin(async () => {
  const file = useRuntimeConfig().toolRegistryFile
  if (typeof file === 'string' && file.trim()) await loadStaticToolRegistry(file.trim())
})
