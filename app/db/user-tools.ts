import { createId } from './create-id'
import { getDatabase } from './database'
import type { UserToolRecord } from './types'

/** The fields the user writes (a checked `UserToolDraft`). */
export type UserToolFields = Pick<UserToolRecord, 'name' | 'description' | 'parameters' | 'code' | 'timeoutMs'>

/** The tools the user wrote, by name. */
export function listUserTools(): Promise<UserToolRecord[]> {
  return getDatabase().userTools.orderBy('name').toArray()
}

/**
 * Keeps a checked draft: a new tool, or the tool `id` edited (its name may change). The draft must have passed
 * `validateUserToolDraft`; the table's unique name index refuses a name another tool of the user's has.
 */
export async function saveUserTool(draft: UserToolFields, id?: string): Promise<UserToolRecord> {
  const db = getDatabase()
  const now = Date.now()
  const existing = id ? await db.userTools.get(id) : undefined
  const record: UserToolRecord = {
    id: existing?.id ?? createId(),
    name: draft.name.trim(),
    description: draft.description.trim(),
    parameters: draft.parameters,
    code: draft.code,
    ...(draft.timeoutMs !== undefined && { timeoutMs: draft.timeoutMs }),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  }
  await db.userTools.put(record)
  return record
}

/**
 * Keeps every draft of an import in one transaction: a draft named like one of the user's tools replaces it,
 * the others are added. Returns how many were added and replaced.
 */
export async function importUserTools(drafts: readonly UserToolFields[]): Promise<{ added: number, replaced: number }> {
  const db = getDatabase()
  let added = 0
  let replaced = 0
  await db.transaction('rw', db.userTools, async () => {
    for (const draft of drafts) {
      const existing = await db.userTools.where('name').equals(draft.name.trim()).first()
      await saveUserTool(draft, existing?.id)
      if (existing) replaced++
      else added++
    }
  })
  return { added, replaced }
}

export function deleteUserTool(id: string): Promise<void> {
  return getDatabase().userTools.delete(id)
}
