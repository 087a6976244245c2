import { formatThreadDate } from '~/utils/chat/thread-date'

/**
 * The browser loads a language's date data with the first date formatter, 10–20 ms on a slow machine: done here, in
 * a task of its own while start-up waits for the database, not in the task that mounts the chat list.
 */
export default defineNuxtPlugin({
  name: 'plugboard:warm-date-format',
  parallel: true,
  setup() {
    setTimeout(() => formatThreadDate(Date.now()), 0)
  },
})
