import { readBoundedJson } from '../../utils/http/read-bounded-body'
import { chatBodyLimitBytes, imageChatBodyLimitBytes } from '../../utils/http/request-limits'
import {
  buildOpenRouterUpstreamHeaders,
  buildOpenRouterUpstreamUrl,
  describeOpenRouterNetworkError,
  OPENROUTER_NO_KEY_MESSAGE,
  OPENROUTER_PROXY_ROUTES,
  pickOpenRouterResponseHeaders,
  readUpstreamErrorBody,
  resolveOpenRouterProxyPath,
} from '../../utils/openrouter-proxy'
import { applyOpenRouterPolicy, filterModelList, OpenRouterPolicyError, readOpenRouterPolicy } from '../../utils/openrouter-policy'
import { relayUpstreamStream } from '../../utils/openrouter-relay'
import { codedError, userError } from '../../utils/http/user-error'

/**
 * /api/openrouter/chat/completions (POST) and /api/openrouter/models (GET): OpenRouter with the server's key
 * (NUXT_OPENROUTER_API_KEY), which never reaches the browser. The middleware has already checked the session,
 * origin and rate limit; here the operator's policy (allowed fields and models, paid options, token cap) is
 * applied, the upstream is given a deadline, redirects are refused, and its stream is relayed with backpressure and
 * ended cleanly on any fault.
 */
export default defineEventHandler(async (event) => {
  const path = resolveOpenRouterProxyPath(getRouterParam(event, 'path'))
  if (!path) throw userError(404, 'Not Found', 'server.openrouter.notProxied')
  const method = OPENROUTER_PROXY_ROUTES[path]
  if (event.method !== method) throw userError(405, 'Method Not Allowed', 'server.openrouter.useMethod', { method, path })

  const config = useRuntimeConfig(event)
  const apiKey = String(config.openrouterApiKey ?? '').trim()
  if (!apiKey) throw userError(503, OPENROUTER_NO_KEY_MESSAGE, 'server.noOpenRouterKey')
  const policy = readOpenRouterPolicy(config)

  let body: string | undefined
  if (method === 'POST') {
    try {
      body = JSON.stringify(applyOpenRouterPolicy(await readBoundedJson(event, imageChatBodyLimitBytes(config.maxImageBodyBytes, chatBodyLimitBytes(config.maxBodyBytes))), policy))
    }
    catch (error) {
      if (error instanceof OpenRouterPolicyError) throw codedError(error.statusCode, undefined, error.text)
      throw error
    }
  }

  // Aborted when the browser disconnects (Stop, closed tab) or the upstream misses its first-byte deadline.
  const upstreamAbort = new AbortController()
  const clientGone = new AbortController()
  event.node.res.on('close', () => {
    clientGone.abort()
    upstreamAbort.abort()
  })
  const timeoutMs = Number(config.upstreamTimeoutMs) > 0 ? Number(config.upstreamTimeoutMs) : 60_000
  const firstByte = setTimeout(() => upstreamAbort.abort(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs)

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
      redirect: 'manual',
      signal: upstreamAbort.signal,
    })
  }
  catch (error) {
    if (clientGone.signal.aborted) return null
    const reason = upstreamAbort.signal.aborted ? upstreamAbort.signal.reason : error
    console.warn(`[openrouter] ${describeOpenRouterNetworkError(reason, config.openrouterBaseUrl, apiKey, { internal: true })}`)
    throw createError({ statusCode: upstreamAbort.signal.aborted ? 504 : 502, statusMessage: describeOpenRouterNetworkError(reason, config.openrouterBaseUrl, apiKey) })
  }
  finally {
    clearTimeout(firstByte)
  }

  if (upstream.status >= 300 && upstream.status < 400) {
    await upstream.body?.cancel()
    throw userError(502, undefined, 'server.openrouter.redirect', { status: upstream.status })
  }
  setResponseStatus(event, upstream.status, upstream.statusText || undefined)
  setResponseHeaders(event, pickOpenRouterResponseHeaders(upstream.headers))
  if (!upstream.ok) return readUpstreamErrorBody(upstream, [apiKey, config.openrouterBaseUrl])
  if (path === 'models' && policy.allowedModels.length > 0) return filterModelList(await upstream.json(), policy)
  if (!upstream.body) return null
  await relayUpstreamStream(upstream.body, event.node.res, {
    idleTimeoutMs: timeoutMs,
    signal: clientGone.signal,
    eventStream: (upstream.headers.get('content-type') ?? '').includes('text/event-stream'),
    onFault: reason => console.warn(`[openrouter] stream ended early: ${reason}`),
  })
})
