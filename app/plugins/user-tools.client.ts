import { liveQuery } from 'dexie'
import { listUserTools } from '~/db/user-tools'
import { toolPluginsReady } from '~/utils/chat/tool-plugins-ready'
import { getUserToolsRegistration } from '~/utils/chat/user-tools/user-tools-singleton'

/**
 * Registers the tools the user wrote in the app (the `userTools` table), after the plugins and server tools so
 * that their names come first, and again whenever the table changes, in this tab or another.
 */
export default defineNuxtPlugin({
  name: 'plugboard:user-tools',
  parallel: true,
  setup() {
    const registration = getUserToolsRegistration()
    let subscription: { unsubscribe: () => void } | undefined
    void toolPluginsReady().then(() => {
      subscription = liveQuery(listUserTools).subscribe({
        next: records => registration.apply(records),
        error: error => console.error('Could not read your tools:', error),
      })
    })
    if (import.meta.hot) {
      import.meta.hot.dispose(() => {
        subscription?.unsubscribe()
        registration.dispose()
      })
    }
  },
})
