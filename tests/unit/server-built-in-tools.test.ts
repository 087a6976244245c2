// calculate and get_current_time are hybrid: the plugin files the browser loads run unchanged on the server.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { registerBuiltInServerTools } from '~~/server/utils/chat/built-in-server-tools'
import { executeServerTool, listServerTools } from '~~/server/utils/chat/tool-registry'

let dispose: () => void = () => {}
beforeAll(() => {
  dispose = registerBuiltInServerTools()
})
afterAll(() => dispose())

describe('the server\'s built-in tools', () => {
  it('registers calculate and get_current_time as hybrid and fetch_web_page as server only', () => {
    expect(listServerTools().map(tool => [tool.name, tool.runtime])).toEqual([
      ['calculate', 'hybrid'], ['get_current_time', 'hybrid'], ['fetch_web_page', 'server'],
    ])
  })

  it('keeps the browser plugin\'s metadata and timeout', () => {
    const calculate = listServerTools()[0]!
    expect(calculate.timeoutMs).toBe(15_000)
    expect(calculate.definition).toMatchObject({ icon: 'i-lucide-calculator', category: 'Utilities', ui: { label: 'Calculator' } })
  })

  it('runs calculate on the server with the plugin\'s own code (mathjs, restricted)', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    expect(await executeServerTool('calculate', '{"expression":"12 * (3 + 4)"}')).toEqual({ result: '84', toolName: 'calculate', timedOut: false, runtime: 'hybrid' })
    expect((await executeServerTool('calculate', '{"expression":"5 km to mi"}')).result).toMatch(/^3\.10\d* mi$/)
    expect((await executeServerTool('calculate', '{"expression":"import({}, {})"}')).error).toMatch(/Function import is disabled/)
  })

  it('runs get_current_time on the server for a given time zone', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2025-03-01T12:00:00Z') })
    try {
      const { result } = await executeServerTool('get_current_time', '{"timezone":"Asia/Kolkata"}')
      expect(JSON.parse(result!)).toMatchObject({ timezone: 'Asia/Kolkata', local: '2025-03-01T17:30:00+05:30', utcOffset: '+05:30', utc: '2025-03-01T12:00:00.000Z' })
    }
    finally {
      vi.useRealTimers()
    }
  })
})
