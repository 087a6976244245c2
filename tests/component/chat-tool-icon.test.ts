// A tool's icon is never a blank hole: an Iconify name the app's server does not know (or that is no Iconify name)
// shows the default wrench instead, an image URL shows as an image, and a known icon stays as the tool gave it.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatToolIcon from '~/components/chat/ChatToolIcon.vue'

const { loadIcon } = vi.hoisted(() => ({ loadIcon: vi.fn<(name: string) => Promise<unknown>>() }))
vi.mock('@iconify/vue', async original => ({ ...(await original<typeof import('@iconify/vue')>()), loadIcon }))

afterEach(() => loadIcon.mockReset())

/** The server has exactly these icons (UIcon's own loads go through the same mock). */
function serverHas(...names: string[]) {
  loadIcon.mockImplementation(async name => (names.includes(name) ? { body: '<path/>' } : Promise.reject(new Error(`missing ${name}`))))
}

async function mountIcon(icon: string) {
  const wrapper = await mountSuspended(ChatToolIcon, { props: { icon, label: 'Probe' } })
  await flushPromises()
  return wrapper.find('[data-slot="tool-icon"]')
}

describe('ChatToolIcon', () => {
  it('keeps an icon the server has, asking for it by its Iconify name', async () => {
    serverHas('tabler:cloud')
    const icon = await mountIcon('i-tabler:cloud')
    expect(icon.attributes('data-icon-missing')).toBeUndefined()
    expect(icon.attributes('data-icon')).toBe('i-tabler:cloud')
    expect(loadIcon).toHaveBeenCalledWith('tabler:cloud')
  })

  it('reads the dash form with the collection\'s full prefix', async () => {
    serverHas('simple-icons:github')
    const icon = await mountIcon('i-simple-icons-github')
    expect(icon.attributes('data-icon-missing')).toBeUndefined()
    expect(icon.attributes('data-icon')).toBe('i-simple-icons-github')
    expect(loadIcon).toHaveBeenCalledWith('simple-icons:github')
  })

  it('shows the wrench for an icon no collection has', async () => {
    serverHas('tabler:cloud')
    const icon = await mountIcon('i-tabler:no-such-icon')
    expect(icon.attributes('data-icon-missing')).toBe('true')
    expect(icon.attributes('data-icon')).toBe('i-lucide-wrench')
  })

  it('shows the wrench for a name that is no Iconify name', async () => {
    serverHas()
    const icon = await mountIcon('Not An Icon')
    expect(icon.attributes('data-icon-missing')).toBe('true')
  })

  it('shows an image URL as an image with alt text', async () => {
    const icon = await mountIcon('/favicon.svg')
    expect(icon.element.tagName).toBe('IMG')
    expect(icon.attributes('alt')).toBe('Probe icon')
  })
})
