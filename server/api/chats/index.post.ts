import { z } from 'zod'
import { checkChatParameters } from '#shared/loop/chat-settings'
import type { ChatParameters } from '#shared/types/chat-parameters'
import { parameterFields } from '#shared/stream/parameter-fields'
import { readBoundedJson } from '../../utils/http/read-bounded-body'
import { chatBodyLimitBytes, imageChatBodyLimitBytes, MAX_CHAT_MESSAGES, MAX_CHAT_TOOLS, MAX_SEARCHED_TOOLS } from '../../utils/http/request-limits'
import { checkOpenRouterBody } from '../../utils/openrouter-body-policy'
import { readOpenRouterPolicy } from '../../utils/openrouter-policy'
import { OPENROUTER_NO_KEY_MESSAGE } from '../../utils/openrouter-proxy'
import { chatJobStore } from '../../utils/background-jobs/store/chat-job-store'
import { requireOwner } from '../../utils/accounts/request-owner'
import { memoryKeyTimings, useChatQueue } from '../../utils/background-jobs/runner/chat-worker'
import { startMemoryKeyChatJob } from '../../utils/background-jobs/store/memory-key-jobs'
import { createChatJob } from '../../utils/background-jobs/runner/stream-handler'
import { clientKeyOf, jobLimitResponse, useJobLimits } from '../../utils/background-jobs/queue/job-admission-route'
import { JobLimitError } from '../../utils/background-jobs/queue/job-limit-error'
import { resolveJobWaitTimeoutMs } from '../../utils/background-jobs/queue/job-wait-timeout'
import { codedError, userError } from '../../utils/http/user-error'

const toolDefinition = z.object({
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1).max(64), description: z.string().max(4096).optional(), parameters: z.record(z.string(), z.unknown()).optional() }),
})

const startChatSchema = z.object({
  threadId: z.string().min(1).max(200),
  model: z.string().min(1).max(200),
  // The wire shapes of shared/types/chat.ts; the loop and the provider read them as they are.
  messages: z.array(z.record(z.string(), z.unknown())).min(1).max(MAX_CHAT_MESSAGES),
  serverTools: z.array(z.string().max(64)).max(MAX_SEARCHED_TOOLS).default([]),
  // With tool search the model is offered a few of them per step, so a chat may switch on more than one request offers.
  browserTools: z.array(toolDefinition).max(MAX_SEARCHED_TOOLS).default([]),
  toolSearch: z.object({ threshold: z.number().int().min(1).max(MAX_CHAT_TOOLS), alwaysOn: z.array(z.string().max(64)).max(MAX_CHAT_TOOLS) }).optional(),
  // the chat's sampling parameters (temperature, top_p, max tokens, reasoning effort), checked as the tab checks them
  parameters: z.record(z.string(), z.unknown()).superRefine((value, context) => {
    const issue = checkChatParameters(value)[0]
    if (issue) context.addIssue({ code: 'custom', message: issue.message })
  }).optional(),
  toolCallMode: z.enum(['native', 'auto', 'text']).default('auto'),
  maxSteps: z.number().int().min(1).max(50).default(10),
  // each offered tool's approval policy ('ask': the job waits for POST /api/chats/:id/approvals)
  toolPolicies: z.record(z.string().max(64), z.enum(['auto', 'ask', 'never']))
    .refine(policies => Object.keys(policies).length <= MAX_SEARCHED_TOOLS * 2, 'too many tool policies').optional(),
  /**
   * "Keep running when I close the tab" with the user's own OpenRouter key: held only in this instance's memory
   * while the reply runs, never stored, queued, logged or sent in an event.
   */
  apiKey: z.string().trim().min(8).max(512).regex(/^[\x21-\x7e]+$/, 'The key has characters a key never has.').optional(),
}).refine(body => body.toolSearch || (body.browserTools.length <= MAX_CHAT_TOOLS && body.serverTools.length <= MAX_CHAT_TOOLS), `more than ${MAX_CHAT_TOOLS} tools need tool search`)

/**
 * POST /api/chats: answer a chat on the server, with the server's OpenRouter key and the operator's policy (or the
 * user's own key, held in this instance's memory only), so the reply goes on when the tab closes. Answers `{ id }` at once (201); the reply is read from
 * GET /api/chats/:id/events. The guard has checked the session and counted it on the 'model' bucket. A session or IP
 * past its cap on unfinished server chats (job-admission.ts) gets 429 with a message the tab shows.
 */
export default defineEventHandler(async (event) => {
  const config = useRuntimeConfig(event)
  const sessionId = (await requireOwner(event)).ownerId
  const parsed = startChatSchema.safeParse(await readBoundedJson(event, imageChatBodyLimitBytes(config.maxImageBodyBytes, chatBodyLimitBytes(config.maxBodyBytes))))
  if (!parsed.success) throw userError(400, 'Bad Request', 'server.job.invalidChat', { reason: parsed.error.issues[0]?.message ?? 'bad body' })
  const body = parsed.data
  const store = chatJobStore()
  const limits = useJobLimits(event)
  const spec = {
    sessionId, clientKey: clientKeyOf(event), threadId: body.threadId, modelName: body.model, serverToolNames: body.serverTools,
    browserTools: body.browserTools as never, messages: body.messages as never, toolCallMode: body.toolCallMode, maxSteps: body.maxSteps,
    ...(body.toolPolicies && { toolPolicies: body.toolPolicies }),
    ...(body.parameters && { parameters: body.parameters as ChatParameters }),
    ...(body.toolSearch && { toolSearch: body.toolSearch }),
  }
  if (body.apiKey) {
    const model = { apiKey: body.apiKey, baseUrl: String(config.openrouterBaseUrl), model: body.model, appUrl: config.public.appUrl, appTitle: config.public.appTitle }
    const job = await startMemoryKeyChatJob(store, spec, model, { heartbeatMs: memoryKeyTimings().heartbeatMs, waitTimeoutMs: resolveJobWaitTimeoutMs(config.jobWaitTimeoutMs), limits }).catch((error: unknown) => {
      if (JobLimitError.isInstance(error)) throw jobLimitResponse(error)
      throw error instanceof Error
        ? userError(503, 'Service Unavailable', 'server.job.couldNotStart', { reason: error.message })
        : userError(503, 'Service Unavailable', 'server.job.couldNotStartPlain')
    })
    setResponseStatus(event, 201)
    return { id: job.id, status: job.status }
  }
  const apiKey = String(config.openrouterApiKey ?? '').trim()
  if (!apiKey) throw userError(503, OPENROUTER_NO_KEY_MESSAGE, 'server.noOpenRouterKey')
  // Refused now rather than by the worker's first request (which applies the same policy to every step).
  const verdict = checkOpenRouterBody({ ...parameterFields(spec.parameters), model: body.model, messages: body.messages }, readOpenRouterPolicy(config))
  if (!verdict.ok) throw codedError(verdict.statusCode, verdict.statusCode === 403 ? 'Forbidden' : 'Bad Request', verdict.text)
  // The job's state holds what any instance's worker needs to run it; the key stays in the runtime config.
  const job = await createChatJob(store, spec, limits).catch((error: unknown) => {
    throw jobLimitResponse(error)
  })
  try {
    await useChatQueue().enqueue(job.id, { kind: 'chat' })
  }
  catch (error) {
    await store.updateJob(job.id, { status: 'failed', error: 'The job could not be queued.' }).catch(() => {})
    throw error
  }
  setResponseStatus(event, 201)
  return { id: job.id, status: job.status }
})
