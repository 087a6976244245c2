import {
  buildOpenRouterUpstreamHeaders,
  buildOpenRouterUpstreamUrl,
  describeOpenRouterNetworkError,
  OPENROUTER_NO_KEY_MESSAGE,
  OPENROUTER_PROXY_ROUTES,
  pickOpenRouterResponseHeaders,
  relayOpenRouterBody,
  resolveOpenRouterProxyPath,
} from '../../utils/openrouter-proxy'

/**
 * /api/openrouter/chat/completions (POST) and /api/openrouter/models (GET): OpenRouter with the server's key
 * (NUXT_OPENROUTER_API_KEY), which never reaches the browser. Upstream status, body and retry-after are passed
 * through unchanged so the browser's error mapping works the same as when it calls OpenRouter directly.
 */
export default defineEventHandler(async (event) => {
  const path = resolveOpenRouterProxyPath(getRouterParam(event, 'path'))
  if (!path) throw createError({ statusCode: 404, statusMessage: 'Only chat/completions and models are proxied to OpenRouter.' })
  const method = OPENROUTER_PROXY_ROUTES[path]
  if (event.method !== method) throw createError({ statusCode: 405, statusMessage: `Use ${method} for /api/openrouter/${path}.` })

  const config = useRuntimeConfig(event)
  const apiKey = String(config.openrouterApiKey ?? '').trim()
  if (!apiKey) throw createError({ statusCode: 503, statusMessage: OPENROUTER_NO_KEY_MESSAGE })

  const body = method === 'POST' ? await readRawBody(event) : undefined
  // 'close' fires when the browser disconnects (Stop, closed tab): abort the upstream request with it.
  const clientGone = new AbortController()
  event.node.res.on('close', () => clientGone.abort())

  let upstream: Response
  try {
    upstream = await fetch(buildOpenRouterUpstreamUrl(config.openrouterBaseUrl, path, getRequestURL(event).search), {
      method,
      headers: buildOpenRouterUpstreamHeaders({
        apiKey,
        appUrl: config.public.appUrl,
        appTitle: config.public.appTitle,
        accept: getRequestHeader(event, 'accept'),
        hasBody: method === 'POST',
      }),
      body,
      signal: clientGone.signal,
    })
  }
  catch (error) {
    if (clientGone.signal.aborted) return null
    throw createError({ statusCode: 502, statusMessage: describeOpenRouterNetworkError(error, config.openrouterBaseUrl, apiKey) })
  }

  setResponseStatus(event, upstream.status, upstream.statusText || undefined)
  setResponseHeaders(event, pickOpenRouterResponseHeaders(upstream.headers))
  if (!upstream.body) return null
  return sendStream(event, relayOpenRouterBody(upstream.body, clientGone.signal))
})
