import { liveQuery } from 'dexie'
import { listUserTools } from '~/db/user-tools'
import type { UserToolRecord } from '~/db/types'
import { toolPluginsReady } from '~/utils/chat/registry/tool-plugins-ready'
import type { UserToolsRegistration } from '~/utils/chat/user-tools/user-tools-registration'

/**
 * Registers the tools the user wrote in the app (the `userTools` table), after the plugins and server tools so
 * that their names come first, and again whenever the table changes, in this tab or another. The registration
 * (draft checks, the sandbox client) is loaded once the table has a tool: most first screens have none.
 */
export default defineNuxtPlugin({
  name: 'plugboard:user-tools',
  parallel: true,
  setup() {
    let registration: Promise<UserToolsRegistration> | undefined
    let subscription: { unsubscribe: () => void } | undefined
    // Each result is applied in order, after the one before it.
    let applied: Promise<void> = Promise.resolve()
    const apply = (records: readonly UserToolRecord[]) => {
      if (!registration && records.length === 0) return
      registration ??= import('~/utils/chat/user-tools/user-tools-singleton').then(module => module.getUserToolsRegistration())
      const loading = registration
      applied = applied.then(() => loading).then(loaded => loaded.apply(records))
        .catch(error => console.error('Could not register your tools:', error))
    }
    void toolPluginsReady().then(() => {
      subscription = liveQuery(listUserTools).subscribe({
        next: apply,
        error: error => console.error('Could not read your tools:', error),
      })
    })
    if (import.meta.hot) {
      import.meta.hot.dispose(() => {
        subscription?.unsubscribe()
        void registration?.then(loaded => loaded.dispose())
      })
    }
  },
})
