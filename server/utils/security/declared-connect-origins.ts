/**
 * The origins the tool plugins of `plugins/` declare with `connects`, read from the build's copy of
 * tool-registry.generated.json (`npm run registry:flash`; a unit test fails when that file is stale), so the
 * page's policy follows the plugins' own declarations with no list kept by hand.
 */
import registry from '../../../tool-registry.generated.json'
import { declaredOriginProblem, parseConnectOriginOverrides, withOriginOverrides } from '#shared/security/declared-origins'

interface RegistryEntry { metadata?: { connects?: unknown } }

/** Every declared origin of `tools`, checked again (the file is data), in the order first declared. */
export function declaredConnectOrigins(tools: readonly RegistryEntry[]): string[] {
  const origins = new Set<string>()
  for (const tool of tools) {
    const connects = tool.metadata?.connects
    if (!Array.isArray(connects)) continue
    for (const origin of connects) if (!declaredOriginProblem(origin)) origins.add(origin as string)
  }
  return [...origins]
}

/** The plugins' declared origins. */
export const PLUGIN_CONNECT_ORIGINS: readonly string[] = Object.freeze(declaredConnectOrigins(registry.tools as RegistryEntry[]))

/** What the page may connect to for the plugins: their origins, each replaced by the operator's override if any. */
export function pluginConnectOrigins(overridesText: string | undefined): string[] {
  return withOriginOverrides(PLUGIN_CONNECT_ORIGINS, parseConnectOriginOverrides(overridesText))
}
