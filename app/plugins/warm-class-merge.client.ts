import { tv } from '#ui/utils/tv'

/**
 * Nuxt UI merges each component's classes with tailwind-merge, which builds its lookup tables on first use: tens of
 * milliseconds on a slow CPU, spent inside the task that renders the first screen. Built here instead, in a task
 * of its own, while start-up waits for the database.
 */
export default defineNuxtPlugin({
  name: 'plugboard:warm-class-merge',
  parallel: true,
  setup() {
    setTimeout(() => tv({ base: 'px-2 px-3' })(), 0)
  },
})
