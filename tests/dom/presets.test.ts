import { Dexie } from 'dexie'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { effectScope } from 'vue'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { createThreadFromPreset, deletePreset, listPresets, MAX_PRESETS, savePreset, type PresetInput } from '~/db/presets'
import { ChatSettingsError, getThreadChatSettings, setThreadChatSettings } from '~/db/thread-chat-settings'
import { createThread, getThread } from '~/db/threads'
import { listMessages } from '~/db/messages'
import { useChat } from '~/composables/useChat'
import { toolSetFromArray } from '#shared/tools/tool-set'
import { createScriptedModel, textStep } from '../unit/helpers/scripted-model'
import { useFreshDatabase } from './helpers/fresh-database'

const input = (patch: Partial<PresetInput> = {}): PresetInput => ({ name: 'Translator', systemPrompt: 'Translate to French.', model: '', parameters: { temperature: 0.2 }, ...patch })

describe('presets and a chat\'s settings', () => {
  useFreshDatabase('presets-test')

  it('creates, edits and deletes presets, listed by name, with an id and updatedAt', async () => {
    const made = await savePreset(input({ name: '  Zed ' }))
    await savePreset(input({ name: 'Alpha' }))
    expect(made).toMatchObject({ name: 'Zed', systemPrompt: 'Translate to French.', model: '', parameters: { temperature: 0.2 } })
    expect(made.id).toMatch(/\w+/)
    expect((await listPresets()).map(preset => preset.name)).toEqual(['Alpha', 'Zed'])
    const edited = await savePreset(input({ name: 'Zed', parameters: { topP: 0.5 }, tools: ['calculate', 'calculate', ' '] }), made.id)
    expect(edited).toMatchObject({ id: made.id, createdAt: made.createdAt, parameters: { topP: 0.5 }, tools: ['calculate'] })
    expect(edited.updatedAt).toBeGreaterThanOrEqual(made.updatedAt)
    await deletePreset(made.id)
    expect((await listPresets()).map(preset => preset.name)).toEqual(['Alpha'])
  })

  it('refuses a preset without a name, with bad parameters or past the cap, saying why', async () => {
    await expect(savePreset(input({ name: ' ' }))).rejects.toThrow('Give the preset a name.')
    await expect(savePreset(input({ parameters: { temperature: 9 } }))).rejects.toThrow('Temperature must be a number from 0 to 2.')
    await expect(savePreset(input({ systemPrompt: 'x'.repeat(20_001) }))).rejects.toBeInstanceOf(ChatSettingsError)
    for (let n = 0; n < MAX_PRESETS; n++) await savePreset(input({ name: `P${n}` }))
    await expect(savePreset(input({ name: 'One more' }))).rejects.toThrow(/delete one first/)
  })

  it('starts a chat from a preset with its own copy of the prompt, model, parameters and tool switches', async () => {
    const preset = await savePreset(input({ model: 'fake/text', parameters: { temperature: 0.2, maxTokens: 100 } }))
    const thread = await createThreadFromPreset(preset, { calculate: false })
    expect(await getThread(thread.id)).toMatchObject({ presetId: preset.id, systemPrompt: 'Translate to French.', chatModel: 'fake/text', parameters: { temperature: 0.2, maxTokens: 100 }, toolChoices: { calculate: false } })
    await savePreset(input({ systemPrompt: 'Changed later' }), preset.id)
    expect((await getThreadChatSettings(thread.id)).systemPrompt).toBe('Translate to French.')
  })

  it('stores a chat\'s settings only when valid, blank prompt and unset parameters left out', async () => {
    const { id } = await createThread()
    await setThreadChatSettings(id, { systemPrompt: 'Be brief.', parameters: { temperature: 1, topP: undefined } })
    expect(await getThreadChatSettings(id)).toEqual({ systemPrompt: 'Be brief.', parameters: { temperature: 1 }, chatModel: undefined })
    await expect(setThreadChatSettings(id, { parameters: { topP: 2 } })).rejects.toThrow('Top P must be a number from 0 to 1.')
    await setThreadChatSettings(id, { systemPrompt: '  ', parameters: {} })
    expect(await getThreadChatSettings(id)).toEqual({ systemPrompt: undefined, parameters: undefined, chatModel: undefined })
  })

  it('sends the chat\'s system prompt first, its parameters, and its model', async () => {
    const preset = await savePreset(input({ model: 'fake/preset-model', parameters: { temperature: 0.3, reasoningEffort: 'low' } }))
    const thread = await createThreadFromPreset(preset)
    const model = createScriptedModel([textStep('Bonjour')])
    const asked: (string | undefined)[] = []
    const scope = effectScope()
    const chat = scope.run(() => useChat(() => thread.id, {
      createModel: (name) => {
        asked.push(name)
        return model
      },
      getToolSet: async () => toolSetFromArray([]),
    }))!
    await chat.send('Hello')
    await vi.waitFor(() => expect(chat.streaming.value).toBe(false), { timeout: 10_000 })
    scope.stop()
    expect(asked).toEqual(['fake/preset-model'])
    expect(model.requests[0]!.messages).toEqual([{ role: 'system', content: 'Translate to French.' }, { role: 'user', content: 'Hello' }])
    expect(model.requests[0]!.parameters).toEqual({ temperature: 0.3, reasoningEffort: 'low' })
    const rows = await listMessages(thread.id)
    // the prompt is sent, never stored as a message of the chat
    expect(rows.map(row => row.role)).toEqual(['user', 'assistant'])
    expect(rows[1]!.model).toBe('fake/preset-model')
  })
})

describe('opening a version 5 database', () => {
  let opened: PlugboardDatabase | undefined
  afterEach(() => {
    opened?.close()
    setDatabase(undefined)
  })

  it('adds the presets table and keeps every chat as it was', async () => {
    const indexedDB = new IDBFactory()
    const old = new Dexie('v5-to-v6', { indexedDB, IDBKeyRange })
    old.version(1).stores({ threads: 'id, updatedAt, createdAt', messages: 'id, threadId, [threadId+seq], createdAt, status' })
    old.version(2).stores({ audit: 'id, toolName, status, startedAt, threadId', userTools: 'id, &name, updatedAt' })
    old.version(3).stores({ searchIndex: 'id, *words', searchWords: 'word' })
    old.version(4).stores({ messages: 'id, threadId, [threadId+seq], createdAt, status, toolStatus' })
    old.version(5).stores({ messages: 'id, threadId, [threadId+seq], [threadId+onPath+seq], parentId, createdAt, status, toolStatus' })
    await old.open()
    await old.table('threads').add({ id: 'a', title: 'Old chat', createdAt: 1, updatedAt: 2, activeLeafId: 'm1' })
    await old.table('messages').add({ id: 'm1', threadId: 'a', seq: 1, role: 'user', content: 'hi', status: 'complete', createdAt: 1, updatedAt: 1, onPath: 1 })
    old.close()

    opened = new PlugboardDatabase('v5-to-v6', { indexedDB, IDBKeyRange })
    setDatabase(opened)
    await opened.open()
    expect(opened.verno).toBe(10)
    expect(await getThread('a')).toEqual({ id: 'a', title: 'Old chat', createdAt: 1, updatedAt: 2, activeLeafId: 'm1' })
    expect(await getThreadChatSettings('a')).toEqual({ systemPrompt: undefined, parameters: undefined, chatModel: undefined })
    expect(await listMessages('a')).toHaveLength(1)
    expect(await listPresets()).toEqual([])
    await savePreset(input())
    expect(await listPresets()).toHaveLength(1)
  })
})
