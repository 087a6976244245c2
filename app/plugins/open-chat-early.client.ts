/**
 * A chat named in the address (`/?thread=…`) opens with its message list: its code (the list, markdown, the
 * sanitiser, the virtualizer) is fetched first thing (order -28: after the payload reviver, before the router), while
 * start-up opens the database, not once the page has mounted; and markdown is rendered once before the turns mount.
 */
export default defineNuxtPlugin({
  name: 'plugboard:open-chat-early',
  order: -28,
  setup() {
    if (!new URLSearchParams(window.location.search).get('thread')) return
    // a failure here is reported by the lazy list itself when the page loads it
    void import('~/components/chat/ChatMessageList.vue').catch(() => {})
    // and the markdown code runs once, in a task of its own, before the first turns mount
    void import('~/utils/chat/markdown-warm-up')
      .then(({ warmUpMarkdown }) => warmUpMarkdown())
      .catch(() => {})
  },
})
