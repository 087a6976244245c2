import { openDatabase } from '~/db/database'
import { markInterrupted } from '~/db/messages'
import { busyThreadIds } from '~/db/thread-lock'
import { pruneAudit } from '~/db/audit'
import { auditCutoff, readAuditRetention } from '~/utils/audit/audit-retention'
import { nextTask } from '~/utils/chat/scheduling/yield-to-page'

/**
 * Start-up chores, before anything renders: open the chats database (IndexedDB, or memory when it cannot be used),
 * then mark replies left streaming when the page was closed as interrupted (their partial text stays) and tool
 * runs left running as cancelled, except in threads another open tab is answering right now; prune the audit log.
 */
export default defineNuxtPlugin({
  name: 'plugboard:startup',
  enforce: 'pre',
  async setup() {
    // In a task of its own: building the database (Dexie reads every schema version) ran on in the router's task,
    // which then took 50–80 ms.
    await nextTask()
    try {
      await openDatabase()
    }
    catch (error) {
      console.error('Plugboard could not open any chat storage:', error, (error as Error).cause)
      return
    }
    try {
      const busy = await busyThreadIds()
      // Measured (`npm run bench:ui` reads it): start-up must not grow with the number of stored messages.
      const started = performance.now()
      await markInterrupted({ skipThreadIds: busy })
      performance.measure('plugboard:mark-interrupted', { start: started })
    }
    catch (error) {
      console.error('Could not mark the replies cut off by the last reload:', error)
    }
    // the audit log keeps runs as long as the user chose (Audit page); older ones go now and on later writes
    const cutoff = auditCutoff(readAuditRetention())
    if (cutoff !== undefined) void pruneAudit(cutoff).catch(error => console.error('Could not prune the audit log:', error))
  },
})
