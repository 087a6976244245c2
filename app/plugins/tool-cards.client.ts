import { defineAsyncComponent } from 'vue'
import { registerToolCard } from '~/utils/chat/tool-cards/tool-card-registry'

/**
 * The built-in tools' cards, where a picture says more than the result's text. Each loads with the first call of
 * its tool shown in a chat, not with the app. (Plugin files register theirs with `export const card`.)
 */
export default defineNuxtPlugin(() => {
  registerToolCard('get_current_time', defineAsyncComponent(() => import('~/components/chat/tool-cards/ToolCardClock.vue')))
  registerToolCard('get_weather', defineAsyncComponent(() => import('~/components/chat/tool-cards/ToolCardWeather.vue')))
  registerToolCard('search_chat_history', defineAsyncComponent(() => import('~/components/chat/tool-cards/ToolCardHistory.vue')))
})
