import { keepHeadUpdates } from '~/utils/head-updates'

/** The head is written again when it changed while a write was under way (see `keepHeadUpdates`). */
export default defineNuxtPlugin({
  name: 'plugboard:head-updates',
  setup() {
    keepHeadUpdates(injectHead())
  },
})
