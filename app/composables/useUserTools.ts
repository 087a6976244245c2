import { computed } from 'vue'
import { deleteUserTool, importUserTools, listUserTools, saveUserTool } from '~/db/user-tools'
import type { UserToolRecord } from '~/db/types'
import type { UserToolDraft } from '~/utils/chat/user-tools/user-tool-draft'
import { exportUserTools, parseUserToolsFile, UserToolsImportError } from '~/utils/chat/user-tools/user-tools-file'
import { USER_TOOLS_MAX_IMPORT_BYTES } from '~/utils/chat/user-tools/user-tool-limits'
import { getUserToolsRegistration } from '~/utils/chat/user-tools/user-tools-singleton'
import { useLiveQuery } from './useLiveQuery'
import { useToolRegistry } from './useToolRegistry'

/**
 * The tools the user wrote in the app, for the settings section and the editor: the stored list (live), why a
 * stored tool is not registered, and the actions. The registry follows the table by itself
 * (app/plugins/user-tools.client.ts), so saving here is enough to register.
 */
export function useUserTools() {
  const { registry } = useToolRegistry()
  const registration = getUserToolsRegistration()
  const tools = useLiveQuery<UserToolRecord[]>(listUserTools, undefined, [])
  const failures = computed(() => registration.failures.value)

  /** True when another tool (any kind, but the user's tool `exceptId`) has the name. */
  function isNameTaken(name: string, exceptId?: string): boolean {
    if ((tools.value ?? []).some(tool => tool.name === name && tool.id !== exceptId)) return true
    return registry.getTool(name) !== undefined && !registration.owns(name)
  }

  /** Reads a chosen file, bounded before reading; every problem is thrown as a UserToolsImportError. */
  async function importFile(file: Blob): Promise<{ added: number, replaced: number }> {
    if (file.size > USER_TOOLS_MAX_IMPORT_BYTES) {
      throw new UserToolsImportError([`The file is ${Math.ceil(file.size / 1000)} KB; tool files of at most ${USER_TOOLS_MAX_IMPORT_BYTES / 1000} KB are accepted.`])
    }
    // An import may replace the user's own tools of the same name, never anyone else's.
    const drafts = parseUserToolsFile(await file.text(), { isNameTaken: name => registry.getTool(name) !== undefined && !registration.owns(name) })
    return importUserTools(drafts)
  }

  return {
    tools,
    failures,
    isNameTaken,
    save: (draft: UserToolDraft, id?: string) => saveUserTool(draft, id),
    remove: (id: string) => deleteUserTool(id),
    importFile,
    /** The text of an export file of `records` (all the user's tools by default). */
    exportText: (records: readonly UserToolRecord[] = tools.value ?? []) => exportUserTools(records),
  }
}
