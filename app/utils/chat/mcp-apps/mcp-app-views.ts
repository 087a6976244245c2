/**
 * The MCP Apps of this tab's tool calls: recorded when an MCP tool with an interface returns (its resource read
 * and kept with the call), shown on the call's card at once from memory, and written onto the call's tool row so
 * a reload, an export or another tab shows it again.
 */
import { shallowRef } from 'vue'
import { getDatabase } from '~/db/database'
import type { McpAppRecord } from '~/db/types'
import { isRecord } from '#shared/types/is-record'
import { loadMcpAppResource } from './mcp-app-servers'
import type { McpAppServer } from './mcp-app-servers'

/** Largest result kept for the app (JSON characters); a larger one is left out and the app gets the input only. */
const MAX_KEPT_RESULT_CHARS = 256 * 1024
/** Calls whose apps are kept in memory (the rows keep them all). */
const MAX_CALLS = 50

const views = shallowRef<ReadonlyMap<string, McpAppRecord>>(new Map())

function remember(callId: string, record: McpAppRecord) {
  const next = new Map(views.value)
  next.delete(callId)
  next.set(callId, record)
  while (next.size > MAX_CALLS) next.delete(next.keys().next().value!)
  views.value = next
}

/** The app of one call recorded in this tab (reactive), or undefined. */
export function mcpAppOfCall(callId: string): McpAppRecord | undefined {
  return views.value.get(callId)
}

/** A tool result as the row keeps it for the app (a plain copy), or undefined when it is not an object or too large. */
export function keptMcpAppResult(result: unknown): Record<string, unknown> | undefined {
  if (!isRecord(result)) return undefined
  const json = JSON.stringify(result)
  return json.length <= MAX_KEPT_RESULT_CHARS ? JSON.parse(json) as Record<string, unknown> : undefined
}

/** Writes a patch of a call's app onto its tool row (found by the call id among the chat's rows). */
export async function saveMcpAppOfCall(threadId: string, callId: string, patch: Partial<McpAppRecord>): Promise<void> {
  const current = views.value.get(callId)
  if (current) remember(callId, { ...current, ...patch })
  await getDatabase().messages.where('threadId').equals(threadId)
    .filter(row => row.role === 'tool' && row.toolCallId === callId)
    .modify((row) => {
      const base = row.mcpApp ?? current
      if (base) row.mcpApp = { ...base, ...patch }
    })
}

export interface RecordMcpAppOptions {
  call: { callId: string, threadId: string, args: Record<string, unknown> }
  result: unknown
  toolName: string
  uri: string
  server: McpAppServer
}

/**
 * Reads the tool's interface and keeps it with the call. A resource that cannot be read leaves the card as it is
 * (the text result is there) and says why in the console; it never fails the call.
 */
export async function recordMcpAppOfCall(options: RecordMcpAppOptions): Promise<void> {
  const { call, result, toolName, uri, server } = options
  try {
    const resource = await loadMcpAppResource(server, uri)
    const record: McpAppRecord = {
      toolName,
      serverName: server.name,
      uri: resource.uri,
      html: resource.html,
      csp: resource.csp,
      ...(resource.prefersBorder && { prefersBorder: true }),
      ...(resource.permissionsAsked && { permissionsAsked: resource.permissionsAsked }),
      input: JSON.parse(JSON.stringify(call.args)) as Record<string, unknown>,
      ...(keptMcpAppResult(result) && { result: keptMcpAppResult(result) }),
    }
    remember(call.callId, record)
    await saveMcpAppOfCall(call.threadId, call.callId, record)
  }
  catch (error) {
    console.warn(`The interface of ${toolName} is not shown: ${error instanceof Error ? error.message : String(error)}`)
  }
}
