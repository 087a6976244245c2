// What an MCP App asks the model to know reaches the chat's next request: from the tool rows that keep it (after a
// reload, or in an imported chat), overridden by what an app of this tab said since, and cleared when it says "".
import { describe, expect, it } from 'vitest'
import { mcpAppModelContextMessage, MAX_MCP_APP_CONTEXTS, setMcpAppModelContext } from '~/utils/chat/mcp-apps/mcp-app-model-context'
import type { MessageRecord } from '~/db/types'

function toolRow(threadId: string, callId: string, modelContext?: string): MessageRecord {
  return {
    id: `row-${callId}`, threadId, seq: 1, role: 'tool', content: 'The counter shows 7.', status: 'complete', createdAt: 1, updatedAt: 1, toolCallId: callId, toolName: 'apps__show_counter',
    mcpApp: { toolName: 'apps__show_counter', serverName: 'Apps', uri: 'ui://counter/app.html', html: '<p></p>', csp: { connectDomains: [], resourceDomains: [] }, ...(modelContext !== undefined && { modelContext }) },
  } as MessageRecord
}

describe('an MCP App\'s model context', () => {
  it('is read from the stored tool rows, so it outlives a reload', () => {
    const message = mcpAppModelContextMessage('chat-rows', [toolRow('chat-rows', 'a', 'The counter shows 9'), toolRow('chat-rows', 'b')])
    expect(message).toEqual({ role: 'user', content: '[What the app apps__show_counter shows the user now]\nThe counter shows 9' })
    expect(mcpAppModelContextMessage('chat-rows', [toolRow('chat-rows', 'b')])).toBeUndefined()
  })

  it('takes what an app said in this tab over the row, and a clear removes it', () => {
    const rows = [toolRow('chat-tab', 'a', 'The counter shows 9')]
    setMcpAppModelContext('chat-tab', 'a', 'apps__show_counter', 'The counter shows 10')
    expect(mcpAppModelContextMessage('chat-tab', rows)?.content).toContain('The counter shows 10')
    expect(mcpAppModelContextMessage('chat-tab', rows)?.content).not.toContain('shows 9')
    setMcpAppModelContext('chat-tab', 'a', 'apps__show_counter', '')
    expect(mcpAppModelContextMessage('chat-tab', rows)).toBeUndefined()
  })

  it('carries the most recent apps only', () => {
    const rows = Array.from({ length: MAX_MCP_APP_CONTEXTS + 3 }, (_, index) => toolRow('chat-many', `c${index}`, `app ${index}`))
    const content = String(mcpAppModelContextMessage('chat-many', rows)?.content)
    expect(content.match(/\[What the app/g)).toHaveLength(MAX_MCP_APP_CONTEXTS)
    expect(content).toContain(`app ${MAX_MCP_APP_CONTEXTS + 2}`)
    expect(content).not.toContain('app 0\n')
  })
})
