import { markRaw } from 'vue'

/**
 * @nuxt/icon resolves a dash name (`i-simple-icons-github`) against the list of every Iconify collection in the
 * app config (243 names), and sorts that list in place for each icon it sets up. The app config is reactive, so
 * each sort went through Vue's proxies (the first one, which reorders it, about 5 ms; then a fraction of a ms per
 * icon, for every icon of every message mounted). Sorted here once, longest name first as it wants it, and kept out
 * of Vue's reactivity: its sort then finds the order done.
 */
export default defineNuxtPlugin({
  name: 'plugboard:icon-collections',
  setup() {
    const options = useAppConfig().icon as { collections?: string[] } | undefined
    if (!options?.collections?.length) return
    options.collections = markRaw([...options.collections].sort((a, b) => b.length - a.length))
  },
})
