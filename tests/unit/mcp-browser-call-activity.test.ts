// The browser's side of running MCP calls: a server's question waits on its call's card until answered or
// withdrawn (Stop), progress is kept per call, and a server's prompts become slash-list entries.
import { shallowRef } from 'vue'
import { describe, expect, it } from 'vitest'
import { answerMcpQuestion, hasMcpCallActivity, mcpCallHooks, mcpCallProgress, mcpCallQuestion } from '~/utils/chat/mcp/mcp-call-activity'
import { mcpPromptCommands, mcpPromptOf, mcpPromptText } from '~/utils/chat/mcp/mcp-prompt-commands'
import type { McpServerView } from '~/utils/chat/mcp/mcp-server-manager'
import type { McpConnection } from '#shared/mcp/mcp-connection'

const FORM = { mode: 'form' as const, message: 'Name?', form: { fields: [], initial: {} } }

describe('a running MCP call in the tab', () => {
  it('shows the server\'s question on its card until the user answers it', async () => {
    const hooks = mcpCallHooks('Survey')('call-a')
    const answer = hooks.onElicit!(FORM, new AbortController().signal)
    expect(mcpCallQuestion('call-a')).toEqual({ serverName: 'Survey', request: FORM })
    expect(hasMcpCallActivity('call-a')).toBe(true)
    expect(answerMcpQuestion('call-a', { action: 'accept', content: { name: 'Ada' } })).toBe(true)
    expect(await answer).toEqual({ action: 'accept', content: { name: 'Ada' } })
    expect(mcpCallQuestion('call-a')).toBeUndefined()
    expect(answerMcpQuestion('call-a', { action: 'decline' })).toBe(false)
  })

  it('withdraws the question when the call is stopped', async () => {
    const stop = new AbortController()
    const answer = mcpCallHooks('Survey')('call-b').onElicit!(FORM, stop.signal)
    stop.abort(new Error('stopped'))
    await expect(answer).rejects.toThrow('stopped')
    expect(mcpCallQuestion('call-b')).toBeUndefined()
    expect(hasMcpCallActivity('call-b')).toBe(false)
  })

  it('keeps the last progress of each call', () => {
    const hooks = mcpCallHooks('Survey')('call-c')
    hooks.onProgress!({ progress: 1, total: 4 })
    hooks.onProgress!({ progress: 2, total: 4, message: 'half' })
    expect(mcpCallProgress('call-c')).toEqual({ progress: 2, total: 4, message: 'half' })
    expect(hasMcpCallActivity('call-c')).toBe(true)
  })
})

function server(overrides: Partial<McpServerView>): McpServerView {
  return { id: 's1', name: 'Survey', url: 'https://mcp.example/mcp', hasToken: false, status: 'connected', tools: [], prompts: [], hasResources: false, ...overrides }
}

describe('an MCP server\'s prompts in the slash list', () => {
  const prompts = [
    { name: 'survey__greet', mcpName: 'greet', title: 'Greeting', parameters: { type: 'object' as const, properties: { name: { type: 'string' } }, required: ['name'] } },
    { name: 'survey__echo', mcpName: 'echo', parameters: { type: 'object' as const, properties: {} } },
  ]
  const manager = { servers: shallowRef([server({ prompts })]) }

  it('are commands named /server__prompt with their arguments as inputs; a tool\'s command of the same name wins', () => {
    const commands = mcpPromptCommands(manager, new Set(['/survey__echo']))
    expect(commands.map(command => [command.commandName, command.displayName, command.metadata?.category])).toEqual([['/survey__greet', 'Greeting', 'Survey']])
    expect(commands[0]!.inputSchema.name).toMatchObject({ type: 'string', required: true })
    expect(mcpPromptOf(commands[0]!)).toEqual({ serverId: 's1', mcpName: 'greet' })
  })

  it('send the prompt\'s text, the arguments as strings; a server that is gone says so', async () => {
    const asked: unknown[] = []
    const connection = { getPrompt: async (name: string, args: Record<string, string>) => {
      asked.push([name, args])
      return { messages: [{ role: 'user', content: { type: 'text', text: 'Hi Ada' } }] }
    } } as unknown as McpConnection
    expect(await mcpPromptText({ connectionOf: () => connection }, { serverId: 's1', mcpName: 'greet' }, { name: 'Ada', count: 2, empty: '' })).toBe('Hi Ada')
    expect(asked).toEqual([['greet', { name: 'Ada', count: '2' }]])
    await expect(mcpPromptText({ connectionOf: () => undefined }, { serverId: 's1', mcpName: 'greet' }, {})).rejects.toThrow('no longer in Settings')
  })
})
