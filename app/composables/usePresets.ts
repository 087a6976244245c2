import { createThreadFromPreset, deletePreset, listPresets, savePreset, type PresetInput } from '~/db/presets'
import type { PresetRecord, ThreadRecord } from '~/db/types'
import { presetToolChoices } from '~/utils/chat/presets/preset-tool-choices'
import type { RegisteredTool } from '~/utils/chat/registry/tool-registry-types'
import { useLiveQuery } from './useLiveQuery'

/**
 * The presets of this browser, kept up to date from Dexie (another tab's change shows too), and the ways to change
 * them or start a chat from one.
 */
export function usePresets() {
  const presets = useLiveQuery<PresetRecord[]>(listPresets, undefined, [])

  /** A new chat with the preset's prompt, model, parameters and tools (switched as the preset says, in it only). */
  function startChat(preset: PresetRecord, tools: readonly RegisteredTool[]): Promise<ThreadRecord> {
    return createThreadFromPreset(preset, presetToolChoices(tools, preset.tools))
  }

  return {
    presets,
    /** Creates (no `id`) or replaces a preset; rejects with a ChatSettingsError whose message says what to fix. */
    save: (input: PresetInput, id?: string) => savePreset(input, id),
    remove: (id: string) => deletePreset(id),
    startChat,
  }
}
