import type { ModelMessage } from '#shared/types/chat'
import type { ToolSet } from '#shared/tools/tool-types'
import { FIND_TOOLS_NAME } from '#shared/tools/tool-search/find-tools-tool'
import { listMessages } from '~/db/messages'
import { useToolSearchSetting } from './tool-search-setting'

/**
 * A chat's tool set with tool search when more tools are enabled than the setting's threshold. The search code
 * (and MiniSearch) loads only then; the chat's earlier `find_tools` results are read so the tools they loaded
 * stay offered in later turns.
 */
export async function withChatToolSearch(base: ToolSet, threadId: string): Promise<ToolSet> {
  const { threshold, alwaysOn } = useToolSearchSetting().state.value
  if (base.definitions.length <= threshold) return base
  const [{ withToolSearch }, rows] = await Promise.all([import('#shared/tools/tool-search/with-tool-search'), listMessages(threadId)])
  const history: ModelMessage[] = rows
    .filter(row => row.role === 'tool' && row.toolName === FIND_TOOLS_NAME && row.toolCallId)
    .map(row => ({ role: 'tool', tool_call_id: row.toolCallId!, name: FIND_TOOLS_NAME, content: row.content }))
  return withToolSearch(base, { threshold, alwaysOn, history })
}

/** What a server-run chat needs to search the same way: sent with the tools when there are more than the threshold. */
export function toolSearchForServer(toolCount: number): { threshold: number, alwaysOn: string[] } | undefined {
  const { threshold, alwaysOn } = useToolSearchSetting().state.value
  return toolCount > threshold ? { threshold, alwaysOn } : undefined
}
