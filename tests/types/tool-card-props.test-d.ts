import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import { defineTool } from '../../shared/tools/definition/define-tool'
import type { ToolCardPropsOf } from '../../app/utils/chat/tool-cards/tool-card-registry'

describe('a tool card\'s props, typed from its tool', () => {
  it('takes the arguments from the parameters and the result from the handler', () => {
    const _dice = defineTool({
      name: 'dice_roll',
      parameters: { type: 'object', properties: { sides: { type: 'integer' } }, required: ['sides'] } as const,
      handler: ({ sides }) => ({ value: Math.ceil(Math.random() * sides), sides }),
    })
    type Props = ToolCardPropsOf<typeof _dice>
    expectTypeOf<Props['args']>().toEqualTypeOf<{ sides: number } | undefined>()
    expectTypeOf<Props['result']>().toEqualTypeOf<{ value: number, sides: number } | undefined>()
  })

  it('awaits an async handler\'s result and reads zod parameters', () => {
    const _lookup = defineTool({
      name: 'lookup',
      parameters: z.object({ word: z.string() }),
      handler: async ({ word }) => [{ word, meaning: 'x' }],
    })
    type Props = ToolCardPropsOf<typeof _lookup>
    expectTypeOf<Props['args']>().toEqualTypeOf<{ word: string } | undefined>()
    expectTypeOf<Props['result']>().toEqualTypeOf<Array<{ word: string, meaning: string }> | undefined>()
  })
})
