import { describe, expect, it } from 'vitest'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import {
  countChangedInChat, createChatToolSet, isEnabledInChat, withChatChoice, type ToolChoices,
} from '~/utils/chat/tool-set/tool-choice-overlay'

const tool = (name: string, defaultEnabled = true) => ({ type: 'function' as const, function: { name, parameters: { type: 'object' as const, properties: {} } }, defaultEnabled })

/** A registry with calculate and get_current_time on, get_weather off (as the app ships them). */
function setup() {
  const registry = createToolRegistry()
  registry.registerTool(tool('calculate'), () => '42')
  registry.registerTool(tool('get_weather', false), () => 'sunny')
  registry.registerTool(tool('get_current_time'), () => 'noon')
  const stored = new Map<string, ToolChoices>()
  const chatToolSet = createChatToolSet(registry, { readChoices: async threadId => stored.get(threadId) })
  const names = async (threadId: string) => (await chatToolSet.getToolSet({ threadId })).definitions.map(definition => definition.function.name)
  return { registry, stored, chatToolSet, names }
}

describe('tool choice per chat', () => {
  it('a chat without its own choices gets exactly the global switches', async () => {
    const { names } = setup()
    expect(await names('new-chat')).toEqual(['calculate', 'get_current_time'])
  })

  it('a tool switched off in one chat is not offered there, and still is in every other chat', async () => {
    const { registry, stored, names } = setup()
    stored.set('chat-a', withChatChoice(undefined, registry.getTool('calculate')!, false))
    expect(await names('chat-a')).toEqual(['get_current_time'])
    expect(await names('chat-b')).toEqual(['calculate', 'get_current_time'])
    // the global switch was not touched
    expect(registry.getTool('calculate')!.enabled.value).toBe(true)
  })

  it('a tool switched on only in one chat is offered there, in registration order, and runs there only', async () => {
    const { registry, stored, chatToolSet, names } = setup()
    stored.set('chat-a', withChatChoice(undefined, registry.getTool('get_weather')!, true))
    expect(await names('chat-a')).toEqual(['calculate', 'get_weather', 'get_current_time'])
    expect(await names('chat-b')).toEqual(['calculate', 'get_current_time'])
    const inA = await chatToolSet.getToolSet({ threadId: 'chat-a' })
    const inB = await chatToolSet.getToolSet({ threadId: 'chat-b' })
    expect(await inA.get('get_weather')!.handler({}, {} as never)).toBe('sunny')
    // the model of another chat cannot call it even by name
    expect(inB.get('get_weather')).toBeUndefined()
  })

  it('a chat keeps its own choice when All chats changes, and a chat without one follows All chats', async () => {
    const { registry, stored, names } = setup()
    stored.set('chat-a', withChatChoice(undefined, registry.getTool('calculate')!, true))
    expect(stored.get('chat-a')).toEqual({}) // same as global: nothing to store
    stored.set('chat-a', withChatChoice(undefined, registry.getTool('get_current_time')!, false))
    registry.setEnabled('get_current_time', true)
    registry.setEnabled('calculate', false)
    expect(await names('chat-a')).toEqual([])
    expect(await names('chat-b')).toEqual(['get_current_time'])
  })

  it('switching a tool back to the global value drops the choice, so the chat follows All chats again', () => {
    const { registry } = setup()
    const calculate = registry.getTool('calculate')!
    const off = withChatChoice(undefined, calculate, false)
    expect(off).toEqual({ calculate: false })
    expect(withChatChoice(off, calculate, true)).toEqual({})
  })

  it('counts the tools switched differently in the chat ("2 changed in this chat")', () => {
    const { registry } = setup()
    const tools = registry.listTools.value
    let choices = withChatChoice(undefined, registry.getTool('calculate')!, false)
    choices = withChatChoice(choices, registry.getTool('get_weather')!, true)
    expect(countChangedInChat(tools, choices)).toBe(2)
    // a stored choice that now equals the global switch is not a change
    registry.setEnabled('calculate', false)
    expect(countChangedInChat(tools, choices)).toBe(1)
    expect(countChangedInChat(tools, undefined)).toBe(0)
  })

  it('ignores choices for tools that are not registered and values that are not booleans', async () => {
    const { stored, names } = setup()
    stored.set('chat-a', { no_such_tool: true, calculate: 'no' as unknown as boolean })
    expect(await names('chat-a')).toEqual(['calculate', 'get_current_time'])
  })

  it('a tool named __proto__ is a plain choice, not a prototype', () => {
    const choices = withChatChoice(undefined, { name: '__proto__', enabled: true }, false)
    expect(Object.getPrototypeOf(choices)).toBeNull()
    expect(isEnabledInChat({ name: '__proto__', enabled: true }, choices)).toBe(false)
    expect(isEnabledInChat({ name: 'toString', enabled: true }, choices)).toBe(true)
  })

  it('a tool on only in this chat whose availability check says no is not offered, and says why', async () => {
    const registry = createToolRegistry()
    registry.registerTool({ ...tool('needs_history', false), available: () => false, unavailableReason: 'Needs earlier chats' }, () => 'x')
    const chatToolSet = createChatToolSet(registry, { readChoices: async () => ({ needs_history: true }) })
    expect((await chatToolSet.getToolSet({ threadId: 'chat-a' })).definitions).toEqual([])
    expect(chatToolSet.notOfferedBecause('needs_history')).toBe('Needs earlier chats')
  })

  it('follows the global switch written through its `enabled` ref (design 000\'s v-model)', async () => {
    const { registry, stored, names } = setup()
    stored.set('chat-a', withChatChoice(undefined, registry.getTool('get_weather')!, true))
    registry.getTool('calculate')!.enabled.value = false
    expect(await names('chat-a')).toEqual(['get_weather', 'get_current_time'])
    expect(await names('chat-b')).toEqual(['get_current_time'])
    expect(isEnabledInChat(registry.getTool('calculate')!, stored.get('chat-a'))).toBe(false)
  })
})
