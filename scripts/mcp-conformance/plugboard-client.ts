/**
 * The conformance kit's client under test: the app's own MCP code (`createMcpConnection`, the app's OAuth provider
 * and sign-in) in a Node form. The kit starts a scenario server, appends its URL and names the scenario in
 * MCP_CONFORMANCE_SCENARIO (credentials in MCP_CONFORMANCE_CONTEXT). Where the browser would open the authorization
 * page in a popup, this client follows it headlessly and reads the code from the redirect, as the kit's own
 * reference client does.
 */
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type { McpCallHooks } from '../../shared/mcp/mcp-call-hooks'
import { createMcpConnection } from '../../shared/mcp/mcp-connection'
import { checkElicitationValues } from '../../shared/mcp/mcp-elicitation-form'
import type { McpConnection } from '../../shared/mcp/mcp-connection'
import { createMcpOAuthProvider } from '../../shared/mcp/oauth/mcp-oauth-provider'
import { createMemoryOAuthStore } from '../../shared/mcp/oauth/mcp-oauth-store'
import { withTokenRenewal } from '../../shared/mcp/oauth/mcp-oauth-fetch'
import type { McpOAuthProvider } from '../../shared/mcp/oauth/mcp-oauth-provider'
import { finishMcpSignIn, isSignInNeeded, readSignInAnswer } from '../../shared/mcp/oauth/mcp-sign-in'
import type { McpSignInAnswer } from '../../shared/mcp/oauth/mcp-sign-in'
import { plannedCalls } from './scenario-calls'

/** The kit's scenario servers expect this URL as the client ID when they support client ID metadata documents. */
const KIT_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json'
const REDIRECT_URL = 'http://localhost:3000/mcp/oauth/callback'
/** Authorization requests one run may make: a server that keeps asking for more scope is not followed past it. */
const MAX_AUTHORIZATION_REQUESTS = 3

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
const serverUrl = process.argv.at(-1) ?? ''

function readContext(): Record<string, string> {
  try {
    return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string>
  }
  catch {
    return {}
  }
}

/** Follows the authorization page without a browser: the kit's authorization server redirects at once. */
async function followAuthorization(url: URL): Promise<McpSignInAnswer> {
  const response = await fetch(url, { redirect: 'manual' })
  const location = response.headers.get('location')
  if (!location) throw new Error(`the authorization page did not redirect (HTTP ${response.status})`)
  return readSignInAnswer(new URL(location, url).searchParams)
}

interface ConformanceAuth {
  provider: OAuthClientProvider
  /** The answer of the last authorization page followed, if any. */
  answer: () => Promise<McpSignInAnswer | undefined>
  clear: () => void
}

function authProviderFor(context: Record<string, string>): ConformanceAuth {
  const noAnswer = { answer: async () => undefined, clear: () => {} }
  if (scenario === 'auth/client-credentials-basic') return { provider: new ClientCredentialsProvider({ clientId: context.client_id!, clientSecret: context.client_secret! }), ...noAnswer }
  if (scenario === 'auth/client-credentials-jwt') {
    return { provider: new PrivateKeyJwtProvider({ clientId: context.client_id!, privateKey: context.private_key_pem!, algorithm: context.signing_algorithm || 'ES256' }), ...noAnswer }
  }
  let pending: Promise<McpSignInAnswer> | undefined
  let requests = 0
  const provider = createMcpOAuthProvider({
    serverUrl,
    store: createMemoryOAuthStore(),
    redirectUrl: REDIRECT_URL,
    clientMetadataUrl: KIT_CLIENT_METADATA_URL,
    preRegistered: context.client_id ? { client_id: context.client_id, client_secret: context.client_secret } : undefined,
    tokenEndpointAuthMethod: context.client_secret ? 'client_secret_basic' : 'none',
    onAuthorizationUrl: (url) => {
      if (++requests > MAX_AUTHORIZATION_REQUESTS) return
      pending = followAuthorization(url)
      pending.catch(() => {})
    },
  })
  return { provider, answer: async () => pending, clear: () => {
    pending = undefined
  } }
}

/** Signs in when the server asked for it and the authorization page was followed; false otherwise. */
async function signInIfAsked(auth: ConformanceAuth | undefined): Promise<boolean> {
  const answer = await auth?.answer()
  if (!auth || !answer) return false
  await finishMcpSignIn(auth.provider as McpOAuthProvider, answer, { serverUrl })
  auth.clear()
  return true
}

/** A user who presses Accept on the form as the app shows it: the schema's defaults filled in (SEP-1034). */
const ACCEPT_AS_SHOWN: McpCallHooks = {
  onElicit: async request => request.mode === 'form'
    ? { action: 'accept', content: checkElicitationValues(request.form, request.form.initial).content }
    : { action: 'accept' },
}

async function main() {
  const auth = scenario.startsWith('auth/') ? authProviderFor(readContext()) : undefined
  const connection: McpConnection = createMcpConnection({
    url: serverUrl,
    prefix: 'conformance',
    authProvider: auth?.provider,
    fetch: auth && 'renewRejected' in auth.provider ? withTokenRenewal(fetch, auth.provider as McpOAuthProvider) : undefined,
    reconnect: { maxAttempts: 0 },
    requestTimeoutMs: 20_000,
    elicitation: true,
  })
  await connection.connect()
  while (connection.state.status !== 'connected' && await signInIfAsked(auth)) await connection.connect()
  if (connection.state.status !== 'connected') throw new Error(`${connection.state.message} ${connection.state.details ?? ''}`)
  const listed = connection.state.tools.map(tool => ({ name: tool.mcpName, inputSchema: tool.parameters }))
  for (const call of plannedCalls(scenario, listed)) {
    for (;;) {
      try {
        await connection.callTool(call.name, call.arguments, undefined, ACCEPT_AS_SHOWN)
        break
      }
      catch (error) {
        // a step-up: the server wants more scope for this call
        if (!isSignInNeeded(error) || !(await signInIfAsked(auth))) throw error
      }
    }
  }
  await connection.close()
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error('Error:', error instanceof Error ? error.stack ?? error.message : error)
  process.exit(1)
})
