import { describe, expect, it } from 'vitest'
import { describeParameters, fromSettingsDraft, toSettingsDraft } from '~/utils/chat/presets/settings-draft'
import { presetToolChoices } from '~/utils/chat/presets/preset-tool-choices'

describe('the chat settings form', () => {
  it('round-trips stored settings, empty fields meaning the provider\'s default', () => {
    const settings = { systemPrompt: 'Be brief.', parameters: { temperature: 0, topP: 0.9, maxTokens: 300, reasoningEffort: 'low' as const } }
    const draft = toSettingsDraft(settings)
    expect(draft).toEqual({ systemPrompt: 'Be brief.', temperature: '0', topP: '0.9', maxTokens: '300', reasoningEffort: 'low' })
    expect(fromSettingsDraft(draft)).toEqual({ settings, errors: {} })
    expect(fromSettingsDraft(toSettingsDraft())).toEqual({ settings: { systemPrompt: '', parameters: undefined }, errors: {} })
  })

  it('reads a decimal comma and refuses text with the field\'s own message', () => {
    expect(fromSettingsDraft({ ...toSettingsDraft(), temperature: '0,7' }).settings.parameters).toEqual({ temperature: 0.7 })
    expect(fromSettingsDraft({ ...toSettingsDraft(), maxTokens: 'lots' }).errors).toEqual({ maxTokens: 'Max tokens must be a whole number from 1 to 200,000.' })
    expect(fromSettingsDraft({ ...toSettingsDraft(), topP: '2', temperature: '-1' }).errors).toEqual({
      temperature: 'Temperature must be a number from 0 to 2.',
      topP: 'Top P must be a number from 0 to 1.',
    })
  })

  it('describes what is set in one line', () => {
    expect(describeParameters({ temperature: 0.2, maxTokens: 500 })).toBe('Temperature 0.2 · Max tokens 500')
    expect(describeParameters(undefined)).toBe('')
  })
})

describe('a preset\'s tools in a new chat', () => {
  const tools = [{ name: 'calculate', enabled: true }, { name: 'get_current_time', enabled: true }, { name: 'fetch_web_page', enabled: false }]

  it('switches on the tools it names and off the others, listing only what differs from All chats', () => {
    expect(presetToolChoices(tools, ['calculate', 'fetch_web_page'])).toEqual({ get_current_time: false, fetch_web_page: true })
    expect(presetToolChoices(tools, ['calculate', 'get_current_time'])).toEqual({})
  })

  it('leaves the chat on All chats when the preset names no list', () => {
    expect(presetToolChoices(tools, undefined)).toBeUndefined()
  })
})
