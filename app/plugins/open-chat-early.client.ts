/**
 * A chat named in the address (`/?thread=…`) opens with its message list: its code (the list, markdown, the
 * sanitiser, the virtualizer) is fetched first thing (order -28: after the payload reviver, before the router), while
 * start-up opens the database, not once the page has mounted.
 */
export default defineNuxtPlugin({
  name: 'plugboard:open-chat-early',
  order: -28,
  setup() {
    if (!new URLSearchParams(window.location.search).get('thread')) return
    // a failure here is reported by the lazy list itself when the page loads it
    void import('~/components/chat/ChatMessageList.vue').catch(() => {})
  },
})
