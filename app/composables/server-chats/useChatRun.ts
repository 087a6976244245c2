import { computed, type Ref } from 'vue'
import type { MessageRecord } from '~/db/types'
import { useChat } from '~/composables/useChat'
import { useRunOnServer } from '~/composables/useRunOnServer'
import { useKeepRunningWithOwnKey } from '~/composables/useKeepRunningWithOwnKey'
import type { useProviderSettings } from '~/composables/useProviderSettings'
import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'
import { createToolErrorListener } from '~/utils/chat/registry/tool-error-listener'
import { createResultPaging } from '~/utils/chat/tool-set/result-paging'
import { toolPluginsReady } from '~/utils/chat/registry/tool-plugins-ready'
import { getChatToolSet } from '~/utils/chat/tool-set/chat-tool-choices'
import { createAppAuditRecorder } from '~/utils/audit/app-audit-recorder'
import { settingsSchemaOf, withToolSettings } from '~/utils/chat/catalog/tool-settings'
import { createLazyOpenAICompatibleModel } from '~/utils/chat/provider/lazy-chat-model'

/**
 * The open chat wired to Settings: which model it asks, which tools it offers, whether it runs in this tab or on the
 * server (with the server's key, or the user's own with "Keep running when I close the tab"), and what listens to its
 * events (tool errors, the audit log, result paging, the chat's title).
 */
export function useChatRun(threadId: Ref<string | undefined>, rows: Ref<MessageRecord[]>, provider: ReturnType<typeof useProviderSettings>) {
  const toast = useToast()
  const { t } = useI18n()
  const runOnServer = useRunOnServer()
  const keepRunningOwnKey = useKeepRunningWithOwnKey()
  const resultPaging = createResultPaging()
  const toolErrorListener = createToolErrorListener(getToolRegistry())
  const auditRecorder = createAppAuditRecorder()

  /** With the user's own OpenRouter key and "Keep running when I close the tab": the server runs it on that key. */
  function ownKeyJob() {
    const { providerId, openrouter } = provider.settings.value
    return keepRunningOwnKey.value && providerId === 'openrouter' && openrouter.keySource === 'user' && openrouter.apiKey.trim()
      ? { model: provider.modelConfig.value.model, apiKey: openrouter.apiKey.trim() }
      : undefined
  }

  /** Whether a send now runs on the server, and on which model and key. */
  function serverRun() {
    return runOnServer.value && provider.settings.value.providerId === 'openrouter' && provider.settings.value.openrouter.keySource === 'server'
      ? { model: provider.modelConfig.value.model }
      : ownKeyJob()
  }

  /** The model a chat asks: its preset's model on the provider of Settings, or the model chosen there. */
  function chatModelFor(model: string | undefined) {
    const { baseURL, apiKey, headers } = provider.modelConfig.value
    return model ? createLazyOpenAICompatibleModel({ baseURL, apiKey, headers, model }) : provider.createModel()
  }

  /** After a chat's first reply from a real model, the model names the chat (the demo keeps the title cut from the question). */
  function nameChatAfterFirstReply(eventThreadId: string) {
    if (provider.settings.value.providerId === 'demo') return
    void import('~/utils/chat/provider/model-title')
      .then(({ titleFromModel }) => titleFromModel(eventThreadId, { createModel: chatModelFor }))
      .catch(error => console.warn('[plugboard] could not get a title for the chat', error))
  }

  const chat = useChat(threadId, {
    // a chat started from a preset asks the preset's model, on the provider of Settings
    createModel: chatModelFor,
    // the chat's own tool choices over the global switches (This chat / All chats in the popover), each tool's
    // settings from the catalog handed to its handler
    // past the tool search threshold a request in this tab offers a few tools plus find_tools; a server-run chat gets
    // them all and searches on the server
    getToolSet: async (context) => {
      const chatTools = await getChatToolSet().getToolSet(context)
      const offered = serverRun() ? chatTools : await (await import('~/utils/chat/tool-set/chat-tool-search')).withChatToolSearch(chatTools, context.threadId)
      return withToolSettings(await resultPaging.withPaging(offered, context.threadId), settingsSchemaOf)
    },
    onEvent: (event, eventThreadId) => {
      toolErrorListener(event)
      void auditRecorder.record(event, eventThreadId)
      if (eventThreadId) resultPaging.onEvent(event, eventThreadId)
      if (event.type === 'finish' && eventThreadId) nameChatAfterFirstReply(eventThreadId)
    },
    // With the server's key, the server answers by default, so closing the tab does not stop the reply.
    runOnServer: serverRun,
    toolCallMode: () => provider.modelConfig.value.toolCallMode,
    // what the model reads is looked up at the first send with images (OpenRouter's model list)
    readsImages: async (model) => {
      const { modelReadsImages } = await import('~/utils/chat/provider/model-reads-images')
      const config = provider.modelConfig.value
      return modelReadsImages({ config, model: model ?? config.model, textOnly: provider.settings.value.openaiCompatible.textOnly })
    },
    modelLabel: () => provider.modelConfig.value.model,
    ready: () => toolPluginsReady(),
    onStorageError: error => toast.add({ title: t('chat.errors.save'), description: error.message, color: 'error' }),
  })

  /** Stored rows, with the reply being streamed shown from memory (Dexie is written throttled). */
  const messages = computed(() => {
    const draft = chat.draft.value
    const list = rows.value
    if (!draft) return list
    return list.map(row => (row.id === draft.messageId ? { ...row, content: draft.content || row.content, reasoning: draft.reasoning || row.reasoning } : row))
  })
  const streamingMessageId = computed(() => (chat.streaming.value ? chat.draft.value?.messageId : undefined))

  return { chat, messages, streamingMessageId }
}
