import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ToolResult, ToolSet } from '#shared/tools/tool-types'
import type { ToolCall } from '#shared/types/chat'
import { createId } from '~/db/create-id'
import { addMessage, updateMessage } from '~/db/messages'
import { toolResultPatch } from '~/db/tool-result-patch'
import type { ToolRegistry } from '../registry/tool-registry-types'
import { settingsSchemaOf, withToolSettings } from './tool-settings'

export interface RunToolCommandOptions {
  threadId: string
  toolName: string
  args: Record<string, unknown>
  /** What the user typed, stored as their message. */
  line: string
  registry: Pick<ToolRegistry, 'getTool'>
  signal?: AbortSignal
  /** The tools of one run, with their settings attached. @default the tool alone, with its saved settings */
  toolSet?: ToolSet
  /** Called once the user's line is stored (the composer may clear it then: nothing typed is lost). */
  onStored?: () => void
}

/**
 * Runs a slash command in a chat. It is stored the way a model's call is: the user's line, then an assistant row
 * with the one tool call, then the tool row with the result, so the card shows in the chat and the next request's
 * history (toModelMessages) holds a call and its answer a strict OpenAI-compatible server accepts. The call runs
 * through the shared executor: argument validation, timeout, settings, errors as results.
 */
export async function runToolCommand(options: RunToolCommandOptions): Promise<ToolResult> {
  const { threadId, toolName, args, line } = options
  const tool = options.registry.getTool(toolName)
  if (!tool) throw new Error(`No tool named "${toolName}" is registered.`)
  const toolSet = options.toolSet ?? withToolSettings(
    toolSetFromArray([{ definition: tool.definition, handler: tool.handler, timeoutMs: tool.timeoutMs }]),
    settingsSchemaOf,
  )
  const call: ToolCall = { id: `call_cmd_${createId().replace(/-/g, '').slice(0, 24)}`, type: 'function', function: { name: toolName, arguments: JSON.stringify(args) } }
  await addMessage({ threadId, role: 'user', content: line, status: 'complete' })
  options.onStored?.()
  await addMessage({ threadId, role: 'assistant', content: '', status: 'complete', toolCalls: [call] })
  const row = await addMessage({
    threadId, role: 'tool', status: 'streaming', toolCallId: call.id, toolName, toolArguments: call.function.arguments,
    toolStatus: 'running', startedAt: Date.now(),
  })
  const [result] = await executeToolCalls([call], toolSet, {
    threadId,
    signal: options.signal,
    onStatus: (_callId, text) => void updateMessage(row.id, { toolStatusText: text }),
  })
  await updateMessage(row.id, toolResultPatch(result!))
  return result!
}
