import { describe, expectTypeOf, it } from 'vitest'
import { defineTool } from '../../shared/tools/definition/define-tool'
import type { RegisteredTool, ToolSandbox } from '~/utils/chat/registry/tool-registry-types'

describe('defineTool sandbox', () => {
  it('accepts sandbox: worker and nothing else', () => {
    defineTool({ name: 'heavy', sandbox: 'worker', handler: () => 'x' })
    // @ts-expect-error only 'worker' exists
    defineTool({ name: 'heavy', sandbox: 'iframe', handler: () => 'x' })
  })

  it('shows on the registered tool', () => {
    expectTypeOf<RegisteredTool['sandbox']>().toEqualTypeOf<ToolSandbox | undefined>()
    expectTypeOf<ToolSandbox>().toEqualTypeOf<'worker'>()
  })
})
