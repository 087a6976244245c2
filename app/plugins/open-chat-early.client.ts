import { nextTask } from '~/utils/chat/scheduling/yield-to-page'

/**
 * A chat named in the address (`/?thread=…`) opens with its message list: its code (the list, markdown, the
 * sanitiser, the virtualizer) is asked for first thing (order -24: just after start-up's first yield, before the
 * router), while start-up opens the database, not once the page has mounted; and markdown is rendered once before the
 * turns mount. Asking for it (a preload link per chunk it needs) takes a task of its own, before the router's.
 */
export default defineNuxtPlugin({
  name: 'plugboard:open-chat-early',
  order: -24,
  async setup() {
    if (!new URLSearchParams(window.location.search).get('thread')) return
    // a failure here is reported by the lazy list itself when the page loads it
    void import('~/components/chat/ChatMessageList.vue').catch(() => {})
    void import('~/utils/chat/markdown/markdown-warm-up')
      .then(({ warmUpMarkdown }) => warmUpMarkdown())
      .catch(() => {})
    await nextTask()
  },
})
