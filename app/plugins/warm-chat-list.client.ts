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
    // Loaded apart: the button and textarea themes are not part of the entry script. The composer's classes are
    // worked out before the page mounts (it is on the first screen, and a timer set now could fire after that), in a
    // task between start-up's and the mount's; the list's and the tool cards' ones later, in a timer.
    const themes = () => Promise.all([import('~/utils/chat/composer/button-classes'), import('~/utils/chat/composer/textarea-classes')])
    nuxtApp.hook('app:beforeMount', async () => {
      try {
        const [buttons, textareas] = await themes()
        await nextTask()
        textareas.textareaClasses(textareas.COMPOSER_TEXTAREA, textareas.textareaOverridesOf(appConfig))
        for (const look of [buttons.SEND_BUTTON, buttons.STOP_BUTTON]) buttons.buttonClasses(look, buttons.buttonOverridesOf(appConfig))
        await nextTask()
        setTimeout(() => buttons.warmButtonClasses(buttons.buttonOverridesOf(appConfig)), 0)
      }
      catch {
        // a chunk that did not load: the components work the classes out themselves
      }
    })
  },
})
