/**
 * Keeps the registry in step with the `userTools` table: each stored tool is registered (sandboxed in QuickJS,
 * asking before it runs), an edited one is registered again, a deleted one is unregistered. The app calls
 * `apply` with every result of a live query on the table, so a change in any tab reaches this one.
 */
import { shallowRef, type ShallowRef } from 'vue'
import type { UserToolRecord } from '~/db/types'
import type { ToolRegistry } from '../registry/tool-registry-types'
import { toToolDefinition } from './user-tool-draft'
import { createUserToolSandbox } from './user-tool-sandbox'
import type { UserToolSandboxOptions } from './user-tool-sandbox'

export interface UserToolsRegistration {
  /** Registers, re-registers and unregisters so the registry holds exactly `records` (by name). */
  apply: (records: readonly UserToolRecord[]) => void
  /** Why a stored tool is not registered (its name is another tool's, or it no longer passes the checks). */
  readonly failures: ShallowRef<ReadonlyMap<string, string>>
  /** True for a name registered from the table. */
  owns: (name: string) => boolean
  /** Unregisters every tool it registered and stops their workers. */
  dispose: () => void
}

interface Registered {
  id: string
  updatedAt: number
  dispose: () => void
}

export function createUserToolsRegistration(
  registry: Pick<ToolRegistry, 'registerTool' | 'getTool'>,
  options: UserToolSandboxOptions = {},
): UserToolsRegistration {
  const registered = new Map<string, Registered>()
  const failures = shallowRef<ReadonlyMap<string, string>>(new Map())

  function apply(records: readonly UserToolRecord[]) {
    const wanted = new Map(records.map(record => [record.name, record]))
    for (const [name, entry] of registered) {
      const record = wanted.get(name)
      if (!record || record.id !== entry.id || record.updatedAt !== entry.updatedAt) {
        entry.dispose()
        registered.delete(name)
      }
    }
    const problems = new Map<string, string>()
    for (const record of records) {
      if (registered.has(record.name)) continue
      if (registry.getTool(record.name)) {
        problems.set(record.name, `another tool is already named "${record.name}"`)
        continue
      }
      try {
        const sandbox = createUserToolSandbox({ name: record.name, code: record.code, timeoutMs: record.timeoutMs }, options)
        const unregister = registry.registerTool(toToolDefinition(record), sandbox.handler)
        registered.set(record.name, {
          id: record.id,
          updatedAt: record.updatedAt,
          dispose: () => {
            unregister()
            sandbox.dispose()
          },
        })
      }
      catch (error) {
        const reason = error instanceof Error ? error.message : String(error)
        problems.set(record.name, reason)
        console.error(`Failed to register your tool ${record.name}: ${reason}`)
      }
    }
    failures.value = problems
  }

  return {
    apply,
    failures,
    owns: name => registered.has(name),
    dispose() {
      for (const entry of registered.values()) entry.dispose()
      registered.clear()
    },
  }
}
