import { nextTask } from '~/utils/chat/scheduling/yield-to-page'

/**
 * A break between the modules' plugins (color mode, Nuxt UI's colours and icons) and the app's own (this file sorts
 * first among them): after the database opened, both ran in one task of 40–50 ms on a busy 2-core machine.
 */
export default defineNuxtPlugin({
  name: 'plugboard:app-plugins-yield',
  async setup() {
    await nextTask()
  },
})
