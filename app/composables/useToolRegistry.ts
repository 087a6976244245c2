// The implementation lives with the registry (app/utils/chat), where plugins import it from `~/utils/chat/tools`.
export { toolRegistryKey, useToolRegistry } from '~/utils/chat/registry/use-tool-registry'
