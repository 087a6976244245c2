import { nextTask } from '~/utils/chat/scheduling/yield-to-page'

/**
 * Start-up in several tasks instead of a few long ones. Without a break, evaluating the entry script ran on into
 * the head and router set-up, and the plugins that run after the database opened ran on into mounting the page:
 * each pair was one long task (70–150 ms on a busy 2-core machine). This plugin comes after the payload reviver
 * (order -30) and before the head and router (-20), and lets the browser run other tasks (input, a frame) there
 * and again just before the page mounts.
 */
export default defineNuxtPlugin({
  name: 'plugboard:start-up-yields',
  order: -25,
  async setup(nuxtApp) {
    nuxtApp.hook('app:beforeMount', () => nextTask())
    await nextTask()
  },
})
