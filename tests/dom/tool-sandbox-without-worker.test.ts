import { afterEach, describe, expect, it, vi } from 'vitest'
import { executeToolCalls } from '#shared/tools/execute-tool-calls'
import { loadToolPlugins } from '~/utils/chat/registry/load-tool-plugins'
import { createToolRegistry } from '~/utils/chat/tool-registry'
import { createToolErrorListener } from '~/utils/chat/registry/tool-error-listener'
import { toolCallEndEvent } from '#shared/loop/loop-event'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('a sandboxed tool in a browser without Web Workers', () => {
  it('fails the call with a clear tool error instead of running on the page', async () => {
    expect(typeof (globalThis as { Worker?: unknown }).Worker).toBe('undefined') // jsdom has none
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const registry = createToolRegistry()
    await loadToolPlugins(import.meta.glob('../../plugins/*.ts'), registry)
    const tools = await registry.getToolSet({ threadId: 'thread-1' })
    const [result] = await executeToolCalls(
      [{ id: 'call-1', type: 'function', function: { name: 'calculate', arguments: '{"expression":"1+1"}' } }],
      tools,
      // As in a loop run: the registry's lastError follows the call's end event.
      { threadId: 'thread-1', onResult: result => createToolErrorListener(registry)(toolCallEndEvent(1, result)) },
    )
    expect(result).toMatchObject({ status: 'error', error: { kind: 'execution' } })
    expect(result!.content).toBe('Error: tool "calculate" failed: the tool\'s Web Worker could not start: Worker is not defined')
    expect(registry.getTool('calculate')!.lastError.value).toBe(result!.error!.message)
  })
})
