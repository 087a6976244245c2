import { describe, expect, it } from 'vitest'
import { defineComponent } from 'vue'
import { defineTool } from '../../shared/tools/definition/define-tool'
import { loadToolPlugins } from '~/utils/chat/registry/load-tool-plugins'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { getToolCard } from '~/utils/chat/tool-cards/tool-card-registry'
import { toolCardProps } from '~/utils/chat/tool-cards/tool-card-props'

describe('a plugin file\'s card', () => {
  it('registers `export const card` for the file\'s tool, and forgets it with the plugin', async () => {
    const card = defineComponent({ name: 'DiceCard', render: () => null })
    const registry = createToolRegistry()
    const result = await loadToolPlugins({
      '../../plugins/dice-roll.ts': async () => ({ default: defineTool({ name: 'dice_roll', handler: () => 4 }), card }),
    }, registry)
    expect(getToolCard('dice_roll')).toBe(card)
    result.dispose()
    expect(getToolCard('dice_roll')).toBeUndefined()
  })
})

describe('a card\'s props', () => {
  it('parses the model\'s arguments and the stored result, and keeps a result that is not JSON as text', () => {
    expect(toolCardProps({ callId: 'c', name: 't', status: 'running', arguments: '{"sides":6}' })).toMatchObject({ args: { sides: 6 }, result: undefined, status: 'running' })
    expect(toolCardProps({ callId: 'c', name: 't', status: 'done', arguments: '{"sid', fullResult: '[{"thread":"A"}]' })).toMatchObject({ args: undefined, result: [{ thread: 'A' }] })
    expect(toolCardProps({ callId: 'c', name: 't', status: 'done', fullResult: 'No earlier message matches "x".' }).result).toBe('No earlier message matches "x".')
  })

  it('drops prototype keys the model wrote', () => {
    const props = toolCardProps({ callId: 'c', name: 't', status: 'running', arguments: '{"__proto__":{"polluted":true},"sides":6}' })
    expect(props.args).toEqual({ sides: 6 })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
