import { openDatabase } from '~/db/database'
import { markInterrupted } from '~/db/messages'

/**
 * Start-up chores, before anything renders: open the chats database (IndexedDB, or memory when it cannot be used),
 * then mark replies left streaming when the page was closed as interrupted (their partial text stays) and tool
 * runs left running as cancelled.
 */
export default defineNuxtPlugin({
  name: 'plugboard:startup',
  async setup() {
    try {
      await openDatabase()
      await markInterrupted()
    }
    catch (error) {
      console.error('Plugboard could not open its chat storage:', error)
    }
  },
})
