import { formatThreadDate } from '~/utils/chat/message-list/thread-date'
import { nextTask } from '~/utils/chat/scheduling/yield-to-page'

/**
 * First uses that cost 5–20 ms on a slow machine, done here, each in a task of its own, instead of in the task that
 * mounts the composer, the chat list or a chat's first tool cards: the browser loads a language's date data with the
 * first date formatter, and Nuxt UI builds a theme's class lookup on first use.
 */
export default defineNuxtPlugin({
  name: 'plugboard:warm-chat-list',
  parallel: true,
  setup(nuxtApp) {
    // read now: the app config is not reachable from a timer
    const appConfig = useAppConfig()
    setTimeout(() => formatThreadDate(Date.now()), 0)
    // Loaded apart: the button theme is not part of the entry script. The list's and the tool cards' button classes
    // are worked out after the page mounts, in a timer.
    nuxtApp.hook('app:beforeMount', async () => {
      try {
        const buttons = await import('~/utils/chat/composer/button-classes')
        await nextTask()
        setTimeout(() => buttons.warmButtonClasses(buttons.buttonOverridesOf(appConfig)), 0)
      }
      catch {
        // a chunk that did not load: the components work the classes out themselves
      }
    })
  },
})
