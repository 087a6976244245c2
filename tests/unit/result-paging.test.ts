import { describe, expect, it, vi } from 'vitest'
import { toolSetFromArray } from '../../shared/tools/tool-set'
import type { ExecutableTool } from '../../shared/tools/tool-types'

vi.mock('~/db/messages', () => ({ listMessages: async () => [] }))
const { createResultPaging } = await import('../../app/utils/chat/tool-set/result-paging')

const echo: ExecutableTool = { definition: { type: 'function', function: { name: 'echo', parameters: { type: 'object', properties: {} } } }, handler: () => 'hi' }
const names = (definitions: { function: { name: string } }[]) => definitions.map(definition => definition.function.name)

describe('result paging in a chat ToolSet', () => {
  it('offers read_tool_result only in a chat that holds a cut result', async () => {
    const paging = createResultPaging({ hasTruncatedResult: async threadId => threadId === 'cut' })
    expect(names((await paging.withPaging(toolSetFromArray([echo]), 'plain')).definitions)).toEqual(['echo'])
    const tools = await paging.withPaging(toolSetFromArray([echo]), 'cut')
    expect(names(tools.definitions)).toEqual(['echo', 'read_tool_result'])
    expect(tools.get('read_tool_result')).toBeDefined()
  })

  it('adds it on the next step once a result of this run was cut', async () => {
    const paging = createResultPaging({ hasTruncatedResult: async () => false })
    const tools = await paging.withPaging(toolSetFromArray([echo]), 't1')
    expect(tools.get('read_tool_result')).toBeUndefined()
    const result = { callId: 'c1', name: 'echo', arguments: '{}', status: 'done' as const, content: 'x', fullContent: 'xy', truncated: true, startedAt: 0, finishedAt: 0 }
    paging.onEvent({ type: 'tool-call-done', result } as never, 't1')
    expect(names(tools.definitions)).toEqual(['echo', 'read_tool_result'])
  })
})
