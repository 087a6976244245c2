import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import ChatInputDropper from '~/components/chat/ChatInputDropper.vue'
import { toolRegistryKey } from '~/composables/useToolRegistry'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import { createThread, getThread } from '~/db/threads'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import type { ToolRegistry } from '~/utils/chat/registry/tool-registry-types'

const mounted: Array<{ unmount: () => void }> = []
let db: PlugboardDatabase

beforeEach(() => {
  db = new PlugboardDatabase('chat-tool-scope-test', { indexedDB: new IDBFactory(), IDBKeyRange })
  setDatabase(db)
})
afterEach(() => {
  mounted.splice(0).forEach(wrapper => wrapper.unmount())
  db.close()
  setDatabase(undefined)
})

function registryWithTools(): ToolRegistry {
  const registry = createToolRegistry()
  registry.registerTool({ type: 'function', function: { name: 'calculate' } }, () => '42')
  registry.registerTool({ type: 'function', function: { name: 'get_weather' }, defaultEnabled: false }, () => 'sunny')
  return registry
}

async function open(registry: ToolRegistry, threadId?: string) {
  const wrapper = await mountSuspended(ChatInputDropper, {
    props: { threadId, open: true },
    global: { provide: { [toolRegistryKey as symbol]: registry } },
  })
  mounted.push(wrapper)
  await flushPromises()
  return wrapper
}

const $ = <T extends Element = HTMLElement>(selector: string) => document.body.querySelector<T>(selector)
const switchOf = (name: string) => $<HTMLButtonElement>(`[data-testid="tool-switch-${name}"]`)!
const radio = (scope: 'chat' | 'all') => $<HTMLInputElement>(`[data-testid="tool-scope-${scope}"] input`)!

/** Waits until Dexie's write and the live query that reads it back have both landed. */
async function settle() {
  for (let round = 0; round < 5; round++) {
    await flushPromises()
    await new Promise(resolve => setTimeout(resolve, 0))
  }
}

describe('ChatInputDropper: This chat / All chats', () => {
  it('in a chat, a switch changes this chat only: stored with the chat, the global switch untouched', async () => {
    const registry = registryWithTools()
    const thread = await createThread('A')
    const wrapper = await open(registry, thread.id)
    expect(radio('chat').checked).toBe(true)
    switchOf('calculate').click()
    await settle()
    expect((await getThread(thread.id))?.toolChoices).toEqual({ calculate: false })
    expect(registry.getTool('calculate')!.enabled.value).toBe(true)
    expect(switchOf('calculate').getAttribute('aria-checked')).toBe('false')
    expect($('[data-testid="tool-scope-changed"]')?.textContent).toContain('1 changed in this chat')
    // the trigger counts what this chat's next send gets
    expect(wrapper.find('[data-testid="tool-popover-trigger"]').text()).toBe('0')

    // All chats shows (and changes) the global switches
    radio('all').click()
    await settle()
    expect(switchOf('calculate').getAttribute('aria-checked')).toBe('true')
    switchOf('get_weather').click()
    await settle()
    expect(registry.getTool('get_weather')!.enabled.value).toBe(true)
    expect((await getThread(thread.id))?.toolChoices).toEqual({ calculate: false })
  })

  it('Reset drops the chat\'s own choices', async () => {
    const registry = registryWithTools()
    const thread = await createThread('A')
    await db.threads.update(thread.id, { toolChoices: { calculate: false, get_weather: true } })
    await open(registry, thread.id)
    await settle()
    expect($('[data-testid="tool-scope-changed"]')?.textContent).toContain('2 changed in this chat')
    $<HTMLButtonElement>('[data-testid="tool-scope-reset"]')!.click()
    await settle()
    expect((await getThread(thread.id))?.toolChoices).toBeUndefined()
    expect($('[data-testid="tool-scope-changed"]')).toBeNull()
    expect(switchOf('calculate').getAttribute('aria-checked')).toBe('true')
  })

  it('without a chat only All chats can be chosen', async () => {
    const registry = registryWithTools()
    await open(registry)
    expect(radio('all').checked).toBe(true)
    expect(radio('chat').disabled).toBe(true)
    switchOf('calculate').click()
    await settle()
    expect(registry.getTool('calculate')!.enabled.value).toBe(false)
  })

  it('another chat\'s choices never show in this one', async () => {
    const registry = registryWithTools()
    const first = await createThread('A')
    const second = await createThread('B')
    await db.threads.update(first.id, { toolChoices: { calculate: false } })
    const wrapper = await open(registry, second.id)
    await settle()
    expect(switchOf('calculate').getAttribute('aria-checked')).toBe('true')
    expect($('[data-testid="tool-scope-changed"]')).toBeNull()
    await wrapper.setProps({ threadId: first.id })
    await settle()
    expect(switchOf('calculate').getAttribute('aria-checked')).toBe('false')
  })
})
