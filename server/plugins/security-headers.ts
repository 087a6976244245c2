import { ensureBrowserSession } from '../utils/security/browser-session'
import { CONNECT_ORIGINS_COOKIE, parseConnectOrigins } from '#shared/security/connect-origins'
import { mcpAppSandboxOrigin } from '#shared/mcp/apps/mcp-app-sandbox-origin'
import { BASELINE_SECURITY_HEADERS, buildContentSecurityPolicy, inlineScriptHashes } from '../utils/security/content-security-policy'
import { pluginConnectOrigins } from '../utils/security/declared-connect-origins'

/**
 * Security headers on every response, static assets included (the 'request' hook runs before Nitro serves a
 * file), and on the app's page a policy that allows exactly its own inline scripts by hash. Loading the page is
 * also what gives a browser its session: the model routes answer only requests that carry it.
 */
/** The MCP Apps sandbox origin of this page, the one origin it may frame. */
function sandboxFrameOrigins(event: Parameters<typeof getCookie>[0]): string[] {
  const origin = mcpAppSandboxOrigin(getRequestURL(event).origin, useRuntimeConfig(event).public.mcpAppsSandboxOrigin || undefined)
  return origin ? [origin] : []
}

export default defineNitroPlugin((nitroApp) => {
  // read once: the public runtime config is fixed for the life of the server
  const declaredOrigins = pluginConnectOrigins(useRuntimeConfig().public.connectOriginOverrides)
  nitroApp.hooks.hook('request', (event) => {
    setResponseHeaders(event, {
      ...BASELINE_SECURITY_HEADERS,
      // workers get their policy from their own script's response: a sandboxed plugin reaches its origins too
      'content-security-policy': buildContentSecurityPolicy({ declaredOrigins, dev: import.meta.dev }),
    })
  })

  nitroApp.hooks.hook('render:response', async (response, { event }) => {
    if (typeof response.body !== 'string') return
    response.headers = {
      ...response.headers,
      'content-security-policy': buildContentSecurityPolicy({
        scriptHashes: inlineScriptHashes(response.body),
        connectOrigins: parseConnectOrigins(getCookie(event, CONNECT_ORIGINS_COOKIE)),
        declaredOrigins,
        dev: import.meta.dev,
        frameOrigins: sandboxFrameOrigins(event),
      }),
      // The page depends on cookies (session, endpoints): never serve it from a shared cache.
      'cache-control': 'no-store',
    }
    await ensureBrowserSession(event)
  })
})
