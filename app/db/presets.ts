import { createId } from './create-id'
import { getDatabase } from './database'
import { normalizeChatSettings, ChatSettingsError } from './thread-chat-settings'
import type { PresetRecord, ThreadRecord } from './types'
import { DEFAULT_THREAD_TITLE } from './threads'

/** Presets one browser keeps at most: the list stays short enough to choose from. */
export const MAX_PRESETS = 100
export const PRESET_NAME_MAX_CHARS = 80
/** Tools a preset may name (as many as a request may offer). */
export const PRESET_MAX_TOOLS = 128

/** What the form gives: the preset without its id and times. */
export type PresetInput = Pick<PresetRecord, 'name' | 'systemPrompt' | 'model' | 'tools' | 'parameters'>

/** The preset as stored, checked (ChatSettingsError with a message for the form). */
function checkedPreset(input: PresetInput): PresetInput {
  const name = input.name.trim()
  if (!name) throw new ChatSettingsError('Give the preset a name.')
  if (name.length > PRESET_NAME_MAX_CHARS) throw new ChatSettingsError(`The name is too long (${PRESET_NAME_MAX_CHARS} characters at most).`)
  const settings = normalizeChatSettings({ systemPrompt: input.systemPrompt, parameters: input.parameters, chatModel: input.model })
  const tools = input.tools === undefined ? undefined : [...new Set(input.tools.map(tool => tool.trim()).filter(Boolean))]
  if (tools && tools.length > PRESET_MAX_TOOLS) throw new ChatSettingsError(`A preset names ${PRESET_MAX_TOOLS} tools at most.`)
  if (tools?.some(tool => tool.length > 64)) throw new ChatSettingsError('A tool name is too long (64 characters at most).')
  return { name, systemPrompt: settings.systemPrompt ?? '', model: settings.chatModel ?? '', tools, parameters: settings.parameters }
}

/** Every preset, by name. */
export async function listPresets(): Promise<PresetRecord[]> {
  const presets = await getDatabase().presets.toArray()
  return presets.sort((a, b) => a.name.localeCompare(b.name))
}

export function getPreset(id: string): Promise<PresetRecord | undefined> {
  return getDatabase().presets.get(id)
}

/** Creates a preset (`id` undefined) or replaces one; returns the stored row. Throws ChatSettingsError when invalid. */
export async function savePreset(input: PresetInput, id?: string): Promise<PresetRecord> {
  const checked = checkedPreset(input)
  const db = getDatabase()
  return db.transaction('rw', db.presets, async () => {
    const now = Date.now()
    const existing = id ? await db.presets.get(id) : undefined
    if (!existing && await db.presets.count() >= MAX_PRESETS) throw new ChatSettingsError(`You have ${MAX_PRESETS} presets; delete one first.`)
    const row: PresetRecord = { ...checked, id: existing?.id ?? createId(), createdAt: existing?.createdAt ?? now, updatedAt: now }
    await db.presets.put(row)
    return row
  })
}

export async function deletePreset(id: string): Promise<void> {
  await getDatabase().presets.delete(id)
}

/**
 * A new empty chat that starts from a preset: its own copy of the prompt, parameters and model (editing the preset
 * later does not change the chat), and `toolChoices`, the chat's switches that differ from All chats.
 */
export async function createThreadFromPreset(preset: PresetRecord, toolChoices?: Record<string, boolean>): Promise<ThreadRecord> {
  const now = Date.now()
  const settings = normalizeChatSettings({ systemPrompt: preset.systemPrompt, parameters: preset.parameters, chatModel: preset.model })
  const thread: ThreadRecord = {
    id: createId(), title: DEFAULT_THREAD_TITLE, createdAt: now, updatedAt: now, presetId: preset.id,
    ...Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)),
    ...(toolChoices && Object.keys(toolChoices).length > 0 && { toolChoices: { ...toolChoices } }),
  }
  await getDatabase().threads.add(thread)
  return thread
}
