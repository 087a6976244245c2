import { computed, onMounted, shallowRef } from 'vue'
import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import type { ServerToolList } from '#shared/types/server-tools'
import { createToolCatalog } from '#shared/tools/rich-definition/tool-catalog'
import { buildBrowserCatalog, fetchServerCatalog } from '~/utils/chat/catalog/browser-catalog'
import { getToolSettingsStore } from '~/utils/chat/catalog/tool-settings'

/**
 * The tool catalog (design 003) for components: every tool as a rich definition, reactive on the registry, with
 * design 003's lookups (`getAll`, `getById`, `findByCommand`, `findByDisplayName`, `getCategories`, `validate`)
 * and the per-tool settings store.
 */
export function useToolCatalog() {
  const { tools, registry } = useToolRegistry()
  const server = shallowRef<ServerToolList | undefined>()
  onMounted(async () => {
    server.value = await fetchServerCatalog()
  })
  const definitions = computed<RichToolDefinition[]>(() => buildBrowserCatalog(tools.value, server.value))
  const catalog = createToolCatalog(() => definitions.value)
  return { definitions, catalog, registry, settings: getToolSettingsStore() }
}
