import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { DEFAULT_JOB_LIMITS, resolveJobLimits } from '~~/server/utils/background-jobs/queue/job-admission'
import type { JobLimits } from '~~/server/utils/background-jobs/queue/job-admission'
import { JobLimitError } from '~~/server/utils/background-jobs/queue/job-limit-error'
import { createChatJob, runChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import type { ChatJobSpec } from '~~/server/utils/background-jobs/runner/stream-handler'
import { createScriptedModel, textStep } from './helpers/scripted-model'

const stores: JobStore[] = []
afterEach(async () => {
  await Promise.all(stores.splice(0).map(store => store.close()))
})

function store(): JobStore {
  const created = createMemoryJobStore()
  stores.push(created)
  return created
}

const MB = 1024 * 1024
const limits: JobLimits = { maxActivePerSession: 3, maxActivePerIp: 5, maxBytesPerSession: 3 * MB, maxBytesPerIp: 8 * MB }

/** A chat as POST /api/chats stores it, `size` bytes of conversation from `clientKey`. */
function chat(sessionId: string, clientKey: string, size = 100): ChatJobSpec {
  return { sessionId, clientKey, threadId: 't', modelName: 'm', serverToolNames: [], messages: [{ role: 'user', content: 'x'.repeat(size) }] }
}

async function refusal(promise: Promise<unknown>): Promise<JobLimitError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught)
  expect(JobLimitError.isInstance(error)).toBe(true)
  return error as JobLimitError
}

describe('caps on unfinished server chats', () => {
  it('refuses a session\'s chat past its count, with a message that says what to do', async () => {
    const jobs = store()
    for (let index = 0; index < 3; index++) await createChatJob(jobs, chat('attacker', 'ip-1'), limits)
    const error = await refusal(createChatJob(jobs, chat('attacker', 'ip-1'), limits))
    expect(error).toMatchObject({ scope: 'session', limit: 'jobs' })
    expect(error.message).toMatch(/already have 3 replies running or waiting on the server.*Wait for one to finish/)
    // another session from elsewhere is not held up
    await expect(createChatJob(jobs, chat('someone', 'ip-2'), limits)).resolves.toMatchObject({ status: 'queued' })
  })

  it('refuses new sessions from one IP past the IP\'s count', async () => {
    const jobs = store()
    for (let index = 0; index < 5; index++) await createChatJob(jobs, chat(`fresh-session-${index}`, 'ip-1'), limits)
    const error = await refusal(createChatJob(jobs, chat('fresh-session-6', 'ip-1'), limits))
    expect(error).toMatchObject({ scope: 'ip', limit: 'jobs' })
    expect(error.message).toMatch(/from your network/)
    await expect(createChatJob(jobs, chat('fresh-session-7', 'ip-2'), limits)).resolves.toBeDefined()
  })

  it('refuses a chat that would take the session past its byte budget, and counts the chat\'s own size', async () => {
    const jobs = store()
    await createChatJob(jobs, chat('heavy', 'ip-1', 2 * MB), limits)
    const error = await refusal(createChatJob(jobs, chat('heavy', 'ip-1', 1.5 * MB), limits))
    expect(error).toMatchObject({ scope: 'session', limit: 'bytes' })
    expect(error.message).toMatch(/already hold 2\.0 MB of conversation.*past 3\.0 MB/)
    await expect(createChatJob(jobs, chat('heavy', 'ip-1', 0.5 * MB), limits)).resolves.toBeDefined()
  })

  it('frees the place and the bytes once a chat finishes, and the finished record keeps no messages', async () => {
    const jobs = store()
    const first = await createChatJob(jobs, chat('busy', 'ip-1', 2 * MB), limits)
    await createChatJob(jobs, chat('busy', 'ip-1'), limits)
    await createChatJob(jobs, chat('busy', 'ip-1'), limits)
    await refusal(createChatJob(jobs, chat('busy', 'ip-1'), limits))
    await runChatJob(jobs, first.id, { model: createScriptedModel([textStep('done')]) })
    const finished = await jobs.getJob(first.id)
    expect(finished).toMatchObject({ status: 'done' })
    expect(finished?.state).toBeUndefined()
    expect(JSON.stringify(finished).length).toBeLessThan(1000)
    expect(await jobs.activeUsage({ sessionId: 'busy' })).toEqual({ jobs: 2, bytes: expect.any(Number) })
    await expect(createChatJob(jobs, chat('busy', 'ip-1', 2 * MB), limits)).resolves.toBeDefined()
  })

  it('reads the limits from the config, defaulting nonsense', () => {
    expect(resolveJobLimits({})).toEqual(DEFAULT_JOB_LIMITS)
    expect(resolveJobLimits({ maxActivePerSession: '4', maxActivePerIp: 0, maxBytesPerSession: -1, maxBytesPerIp: 'lots' })).toEqual({ ...DEFAULT_JOB_LIMITS, maxActivePerSession: 4 })
  })
})
