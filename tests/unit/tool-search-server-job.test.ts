import { afterEach, describe, expect, it } from 'vitest'
import type { LoopEvent } from '#shared/loop/loop-event'
import { FIND_TOOLS_NAME } from '#shared/tools/tool-search/find-tools-tool'
import type { JobStore } from '~~/server/utils/background-jobs/store/job-store-types'
import { createMemoryJobStore } from '~~/server/utils/background-jobs/store/memory-job-store'
import { startChatJob } from '~~/server/utils/background-jobs/runner/stream-handler'
import { registerServerTool } from '~~/server/utils/chat/tool-registry'
import { isEnd, waitForEvent } from './helpers/job-events'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'

const disposers: Array<() => void> = []
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
})

async function waitForEnd(store: JobStore, jobId: string): Promise<LoopEvent[]> {
  await waitForEvent(store, jobId, isEnd)
  return (await store.readEvents<LoopEvent>(jobId, 0)).map(item => item.event)
}

describe('tool search in a server-run chat', () => {
  it('offers the always-on tools and find_tools, then the found tool from the next step on', async () => {
    const names = Array.from({ length: 40 }, (_, index) => `job_search_tool_${index}`)
    for (const [index, name] of names.entries()) {
      const description = index === 17 ? 'Converts an amount between currencies at today\'s exchange rate.' : `Counts the pebbles of bucket ${index}.`
      disposers.push(registerServerTool({ type: 'function', function: { name, description, parameters: { type: 'object', properties: {} } } }, () => `ran ${name}`, { runtime: 'server' }))
    }
    const store = createMemoryJobStore()
    const model = createScriptedModel([
      toolCallStep([{ name: FIND_TOOLS_NAME, args: { query: 'convert currency exchange rate' } }]),
      toolCallStep([{ name: 'job_search_tool_17' }]),
      textStep('Converted.'),
    ])
    const job = await startChatJob(store, {
      sessionId: 's1', threadId: 't1', messages: [{ role: 'user', content: '10 EUR in USD?' }], model, serverToolNames: names,
      toolSearch: { threshold: 32, alwaysOn: ['job_search_tool_0'] },
    })
    const events = await waitForEnd(store, job.id)

    expect(model.requests[0]!.tools!.map(tool => tool.function.name)).toEqual(['job_search_tool_0', FIND_TOOLS_NAME])
    expect(model.requests[1]!.tools!.map(tool => tool.function.name)).toContain('job_search_tool_17')
    expect(events.some(event => event.type === 'tool-call-done' && event.result.content === 'ran job_search_tool_17')).toBe(true)
  })
})
