import { formatThreadDate } from '~/utils/chat/thread-date'

/**
 * First uses that cost 5–20 ms on a slow machine, done here, each in a task of its own while start-up waits for the
 * database, instead of in the task that mounts the composer, the chat list or a chat's first tool cards: the browser
 * loads a language's date data with the first date formatter, and Nuxt UI builds a theme's class lookup on first use.
 */
export default defineNuxtPlugin({
  name: 'plugboard:warm-chat-list',
  parallel: true,
  setup() {
    // read now: the app config is not reachable from a timer
    const appConfig = useAppConfig()
    setTimeout(() => formatThreadDate(Date.now()), 0)
    // loaded apart: the button and textarea themes are not part of the entry script
    setTimeout(() => {
      void Promise.all([import('~/utils/chat/button-classes'), import('~/utils/chat/textarea-classes')])
        .then(([buttons, textareas]) => {
          // the composer first: it is on the first screen
          setTimeout(() => {
            textareas.textareaClasses(textareas.COMPOSER_TEXTAREA, textareas.textareaOverridesOf(appConfig))
            for (const look of [buttons.SEND_BUTTON, buttons.STOP_BUTTON]) buttons.buttonClasses(look, buttons.buttonOverridesOf(appConfig))
          }, 0)
          setTimeout(() => buttons.warmButtonClasses(buttons.buttonOverridesOf(appConfig)), 0)
        })
        .catch(() => {})
    }, 0)
  },
})
