// The tool calls an MCP App makes through its card land in the audit log like the model's: the approval decision,
// status, result size and error, marked as asked for by the app of the card's tool (requestedBy `app:<tool>`).
import { describe, expect, it } from 'vitest'
import { auditMcpAppCall, mcpAppAuditRecorder } from '~/utils/chat/mcp-apps/mcp-app-audit'
import { auditCsvLine } from '~/utils/audit/audit-export'
import { useFreshDatabase } from './helpers/fresh-database'

const database = useFreshDatabase('mcp-app-calls-audit-test')

async function rows() {
  await mcpAppAuditRecorder().settled()
  return database().audit.toArray()
}

describe('an MCP App\'s tool calls in the audit log', () => {
  it('logs an allowed call with the user\'s decision, its result and the app that asked', async () => {
    const audit = auditMcpAppCall({ threadId: 'chat-1', appTool: 'apps__show_counter', toolName: 'apps__increment', args: { by: 1 } })
    audit.asking()
    audit.decided('allowed-once')
    audit.running()
    audit.done({ content: [{ type: 'text', text: 'The counter shows 8.' }], structuredContent: { count: 8 } })
    const [row] = await rows()
    expect(row).toMatchObject({
      toolName: 'apps__increment', threadId: 'chat-1', requestedBy: 'app:apps__show_counter', decision: 'allowed-once',
      status: 'done', argumentsAsked: '{"by":1}', argumentsRun: '{"by":1}',
    })
    expect(row!.toolCallId).toMatch(/^app-/)
    expect(row!.resultBytes).toBeGreaterThan(0)
    expect(auditCsvLine(row!)).toContain('app:apps__show_counter')
  })

  it('logs a declined call and a call its policy refuses as denied, with the reason', async () => {
    const declined = auditMcpAppCall({ threadId: 'chat-1', appTool: 'apps__show_counter', toolName: 'apps__increment', args: {} })
    declined.asking()
    declined.decided('denied')
    declined.failed('The user declined to run apps__increment.', 'denied-by-user')
    const never = auditMcpAppCall({ threadId: 'chat-1', appTool: 'apps__show_counter', toolName: 'apps__reset', args: {} })
    never.decided('never')
    never.failed('The app may not run apps__reset: it is set to Never in your tool settings.', 'refused-by-policy')
    const logged = await rows()
    expect(logged.map(row => [row.toolName, row.decision, row.status, row.requestedBy])).toEqual(expect.arrayContaining([
      ['apps__increment', 'denied', 'denied', 'app:apps__show_counter'],
      ['apps__reset', 'never', 'denied', 'app:apps__show_counter'],
    ]))
    expect(logged.find(row => row.toolName === 'apps__reset')?.error).toMatch(/set to Never/)
  })
})
