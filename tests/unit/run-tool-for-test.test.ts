// runToolForTest: a plugin author's way to run a tool exactly as a chat would, through the real executor.
import { describe, expect, it } from 'vitest'
import { defineTool, InvalidToolDefinitionError, runToolForTest } from '~/utils/chat/tools'
import calculate from '~~/plugins/calculate'

const weather = defineTool({
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Fetch the current weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string', minLength: 1 } }, required: ['city'], additionalProperties: false },
  },
})

describe('runToolForTest', () => {
  it('runs the handler with the arguments and a real context, and returns what the model would get', async () => {
    const result = await runToolForTest(weather.definition, ({ city }, context) => {
      context.status(`asking about ${city}`)
      return { city, sky: 'sunny', threadId: context.threadId, callId: context.callId }
    }, { city: 'Oslo' }, { threadId: 'chat-1', callId: 'call_7' })
    expect(result).toMatchObject({ status: 'done', name: 'get_weather', callId: 'call_7', arguments: '{"city":"Oslo"}' })
    expect(JSON.parse(result.content)).toEqual({ city: 'Oslo', sky: 'sunny', threadId: 'chat-1', callId: 'call_7' })
    expect(result.statuses).toEqual(['asking about Oslo'])
  })

  it('refuses arguments the schema refuses, without calling the handler, as the model would be told', async () => {
    let called = false
    const result = await runToolForTest(weather.definition, () => { called = true }, '{"city":"","country":"NO"}')
    expect(called).toBe(false)
    expect(result.status).toBe('error')
    expect(result.error!.kind).toBe('invalid-input')
    expect(result.content).toMatch(/city/)
  })

  it('turns a throwing handler into an error result instead of throwing', async () => {
    const result = await runToolForTest(weather.definition, () => { throw new Error('upstream is down') }, { city: 'Oslo' })
    expect(result).toMatchObject({ status: 'error', error: { kind: 'execution' } })
    expect(result.content).toContain('upstream is down')
  })

  it('times the handler out with the tool\'s own limit and aborts its signal', async () => {
    let aborted = false
    const result = await runToolForTest({ ...weather.definition, timeoutMs: 20 }, (_args, { signal }) => new Promise((resolve) => {
      signal.addEventListener('abort', () => { aborted = true; resolve('late') })
    }), { city: 'Oslo' })
    expect(result).toMatchObject({ status: 'error', error: { kind: 'timeout' } })
    expect(aborted).toBe(true)
  })

  it('asks the availability check, as a chat does before offering the tool', async () => {
    const result = await runToolForTest({ ...weather.definition, available: () => false }, () => 'never', { city: 'Oslo' })
    expect(result).toMatchObject({ status: 'error', error: { kind: 'no-such-tool' } })
  })

  it('runs a one-file plugin from plugins/ (its definition and handler)', async () => {
    // mathjs is the calculator's engine, imported on its first call; on a loaded machine the test runner's first
    // transform of it can take longer than the tool's 5 s, which would test the runner, not the tool
    await import('mathjs')
    const result = await runToolForTest(calculate.definition, calculate.handler, { expression: '12*7' })
    expect(result).toMatchObject({ status: 'done', content: '84' })
  })

  it('rejects a broken definition as registerTool would', async () => {
    await expect(runToolForTest({ type: 'function', function: { name: 'no spaces allowed' } }, () => '')).rejects.toThrow(InvalidToolDefinitionError)
  })
})
