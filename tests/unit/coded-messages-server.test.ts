// The refusals of sync, workflows, server-run replies and the MCP relay, and the browser's own sync and reply
// sentences: each keeps its English (logs, tests and older clients read it) and carries a code the app says in the
// user's language, also when one sentence quotes another.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterEach, describe, expect, it } from 'vitest'
import { appTextWithReason, refusalText } from '#shared/errors/app-messages'
import { ProviderError } from '#shared/errors/provider-error'
import { serverText } from '#shared/errors/server-messages'
import { describeLoopFailure } from '#shared/loop/loop-failure'
import { explainMcpError } from '#shared/mcp/mcp-error-text'
import { skippedToolsText } from '#shared/mcp/mcp-tool-list'
import { createChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { endingEventFor, vanishedJobEvent } from '~~/server/utils/background-jobs/runner/job-ending'
import { JobLimitError } from '~~/server/utils/background-jobs/queue/job-limit-error'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { RESTART_INTERRUPTION } from '~~/server/utils/background-jobs/store/job-record-persistence'
import { checkMcpTarget } from '~~/server/utils/mcp/mcp-proxy'
import { SyncQuotaError } from '~~/server/utils/sync/sync-quota-error'
import { sayCodedText } from '~/utils/chat/coded-text'
import { catalogTranslator } from './helpers/catalog-translator'


const stores: JobStore[] = []
afterEach(async () => {
  await Promise.all(stores.splice(0).map(store => store.close()))
})

describe('coded refusals of sync, workflows, jobs and the relay', () => {
  it('a job cap keeps its English and tells a German user the same in German', async () => {
    const store = createMemoryJobStore()
    stores.push(store)
    const limits = { maxActivePerSession: 1, maxActivePerIp: 5, maxBytesPerSession: 1024 * 1024, maxBytesPerIp: 8 * 1024 * 1024 }
    const spec = { sessionId: 's', clientKey: 'ip', threadId: 't', modelName: 'm', serverToolNames: [], messages: [{ role: 'user' as const, content: 'hi' }] }
    await createChatJob(store, spec, limits)
    const error = await createChatJob(store, spec, limits).then(() => undefined, (caught: unknown) => caught) as JobLimitError
    expect(JobLimitError.isInstance(error)).toBe(true)
    expect(error.message).toBe('You already have 1 replies running or waiting on the server, the most one browser may have. Wait for one to finish (or stop one), then send again.')
    expect(error.text).toMatchObject({ code: 'server.job.browserJobs', params: { count: 1 } })
    expect(sayCodedText(catalogTranslator('de'), error.text)).toMatch(/^Sie haben schon 1 Antworten, die auf dem Server laufen/)
  })

  it('a reply that ended on the server fails with a coded line: known endings by their own code, others around their words', () => {
    const restarted = endingEventFor({ status: 'interrupted', error: RESTART_INTERRUPTION })
    expect(restarted).toEqual({ type: 'fail', steps: 0, error: { kind: 'server', message: `${RESTART_INTERRUPTION} Press Retry.`, code: 'server.job.restarted', params: {}, retryable: true } })
    const lost = endingEventFor({ status: 'interrupted', error: undefined })
    expect(lost).toMatchObject({ error: { message: 'The server lost this reply before it finished. Press Retry.', code: 'server.job.lost' } })
    const other = endingEventFor({ status: 'failed', error: 'The provider had a server error (500).' })
    expect(other).toMatchObject({ error: { message: 'The provider had a server error (500). Press Retry.', code: 'server.job.failed', params: { reason: 'The provider had a server error (500).' } } })
    const vanished = vanishedJobEvent()
    expect(vanished).toMatchObject({ error: { code: 'server.job.vanished' } })
    const failure = (vanished as { error: { code: string, params: Record<string, string>, message: string } }).error
    expect(sayCodedText(catalogTranslator('es'), failure)).toMatch(/^El servidor ya no tiene esta respuesta/)
  })

  it('the server\'s refusal to start a chat keeps its code through the loop\'s failure', () => {
    const text = serverText('server.job.browserStreams', { max: 6 })
    const failure = describeLoopFailure(new ProviderError(text.message, { kind: 'unknown', status: 429, text }))
    expect(failure).toMatchObject({ message: text.message, code: 'server.job.browserStreams', params: { max: 6 } })
    // words that came without a code carry none: the app shows them as they are
    expect(describeLoopFailure(new ProviderError('Rate limited.', { kind: 'rate-limit' }))).not.toHaveProperty('code')
  })

  it('a sentence that quotes a server\'s refusal says both in the user\'s language', () => {
    const quoted = appTextWithReason('app.reply.stoppedFollowing', serverText('server.job.browserStreams', { max: 6 }))
    expect(quoted.message).toBe('This chat stopped following its reply: This browser already has 6 chat streams open on this server, the most it may hold. Close tabs of this app you do not use, or wait for running replies to end. Then press Retry.')
    expect(sayCodedText(catalogTranslator('de'), quoted)).toBe('Dieser Chat folgt seiner Antwort nicht mehr: Dieser Browser hat schon 6 Chat-Verbindungen zu diesem Server offen, so viele wie er halten darf. Schließen Sie Tabs dieser App, die Sie nicht nutzen, oder warten Sie, bis laufende Antworten fertig sind. Drücken Sie dann auf „Erneut versuchen“.')
    const notOnServer = appTextWithReason('app.sync.notOnServer', refusalText({ statusCode: 404, message: 'No such synced file.', data: { code: 'server.sync.noSuchFile', params: {} } }, 404))
    expect(notOnServer.message).toBe('Not on the server: No such synced file.')
    expect(sayCodedText(catalogTranslator('es'), notOnServer)).toBe('No está en el servidor: Ese archivo sincronizado no existe.')
  })

  it('a refusal without a code shows its English, and one without words its status', () => {
    const german = catalogTranslator('de')
    expect(sayCodedText(german, refusalText({ message: 'Something an older server said.' }, 400))).toBe('Something an older server said.')
    expect(sayCodedText(german, refusalText(undefined, 413))).toBe('Der Server antwortete mit 413.')
  })

  it('a sync cap and the relay\'s refusals carry their codes', () => {
    const quota = new SyncQuotaError('bytes', 50 * 1024 * 1024)
    expect(quota.message).toBe('Sync keeps at most 50 MB per account: delete old chats or large tool results to sync new ones.')
    expect(quota.text).toMatchObject({ code: 'server.sync.tooManyBytes', params: { megabytes: 50 } })
    let refused: { message?: string, data?: unknown } | undefined
    try {
      checkMcpTarget('https://mcp.example.com/mcp', ['tools.example.org'])
    }
    catch (error) {
      refused = error as typeof refused
    }
    expect(refused?.message).toBe('mcp.example.com is not among the MCP servers this server relays (NUXT_MCP_ALLOWED_HOSTS).')
    expect(refused?.data).toEqual({ code: 'server.relay.hostNotAllowed', params: { host: 'mcp.example.com' } })
  })

  it('Settings shows the relay\'s own coded refusal when it says more than the status', () => {
    const body = JSON.stringify({ statusCode: 502, message: 'The MCP server answered with a redirect (302), which the relay does not follow.', data: { code: 'server.relay.redirect', params: { status: 302 } } })
    const explained = explainMcpError(new StreamableHTTPError(502, `Error POSTing to endpoint: ${body}`))
    expect(explained.text).toMatchObject({ code: 'server.relay.redirect', params: { status: 302 } })
    expect(sayCodedText(catalogTranslator('de'), explained.text)).toBe('Der MCP-Server hat mit einer Weiterleitung (302) geantwortet, der die Weiterleitung dieser App nicht folgt.')
  })

  it('the skipped tools of an MCP server are one coded line, singular or plural', () => {
    expect(skippedToolsText([])).toBeUndefined()
    expect(skippedToolsText([{ name: 'a', reason: 'no schema' }])).toMatchObject({ code: 'mcp.toolSkipped', message: '1 tool skipped: a (no schema).' })
    const many = skippedToolsText(['a', 'b', 'c', 'd'].map(name => ({ name, reason: 'bad' })))
    expect(many?.message).toBe('4 tools skipped: a (bad); b (bad); c (bad); and 1 more.')
    expect(sayCodedText(catalogTranslator('es'), many!)).toBe('4 herramientas omitidas: a (bad); b (bad); c (bad); y 1 más.')
  })
})
