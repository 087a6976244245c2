import { provide, watch, type Ref } from 'vue'
import type { SlashCommandRun } from '~/components/chat/ChatSlashCommands.vue'
import type { useComposerAttachments } from '~/composables/useComposerAttachments'
import { mcpResourceFiles, takeMcpResourceFiles } from '~/utils/chat/mcp/mcp-resource-handoff'
import { MCP_APP_CHAT } from '~/utils/chat/mcp-apps/mcp-app-chat'

/** An MCP App's `ui/message` is the user's message in the chat shown. */
export function useMcpAppChat(threadId: Ref<string | undefined>, send: (text: string) => Promise<boolean>) {
  provide(MCP_APP_CHAT, { threadId: () => threadId.value, send })
}

/** A resource attached in Settings → MCP servers joins the files of the message being written. */
export function useMcpResourceHandoff(attachments: Pick<ReturnType<typeof useComposerAttachments>, 'add'>) {
  watch(mcpResourceFiles, (files) => {
    if (files.length > 0) void attachments.add(takeMcpResourceFiles())
  })
}

/** An MCP server's prompt: its messages, as text, are sent as the user's message. */
export async function sendMcpPrompt(command: SlashCommandRun, prompt: NonNullable<SlashCommandRun['prompt']>, send: (text: string) => Promise<unknown>) {
  const [{ mcpPromptText }, { getMcpServerManager }] = await Promise.all([import('~/utils/chat/mcp/mcp-prompt-commands'), import('~/utils/chat/mcp/mcp-server-manager-singleton')])
  await send(await mcpPromptText(getMcpServerManager(), prompt, command.args))
}
