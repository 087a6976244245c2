import { describe, expect, it } from 'vitest'
import { runChatLoop } from '#shared/loop/run-chat-loop'
import type { LoopEvent } from '#shared/loop/loop-event'
import { toolSetFromArray } from '#shared/tools/tool-set'
import type { ExecutableTool } from '#shared/tools/tool-types'
import { FIND_TOOLS_NAME, toolsLoadedIn } from '#shared/tools/tool-search/find-tools-tool'
import { createToolSearchIndex, wordsOfName } from '#shared/tools/tool-search/tool-search-index'
import { withToolSearch } from '#shared/tools/tool-search/with-tool-search'
import type { ModelMessage, ToolDefinition } from '#shared/types/chat'
import { descriptionQuery, loadCorpusQuestions, loadCorpusTools, seededShuffle } from '../../bench/tool-search/corpus-tools'
import { createScriptedModel, textStep, toolCallStep } from './helpers/scripted-model'

const corpus = loadCorpusTools()

function executable(definition: ToolDefinition, handler: ExecutableTool['handler'] = () => `ran ${definition.function.name}`): ExecutableTool {
  return { definition, handler }
}

function names(definitions: readonly ToolDefinition[] | undefined): string[] {
  return (definitions ?? []).map(definition => definition.function.name)
}

/** 300 corpus tools plus a weather tool whose description the test searches for. */
function largeSet() {
  const weather: ToolDefinition = {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather conditions and a three-day forecast for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
    },
  }
  const others = seededShuffle(corpus.filter(tool => !tool.function.name.includes('weather')), 7).slice(0, 299)
  return { weather, tools: [...others, weather].map(definition => executable(definition)) }
}

describe('tool search', () => {
  it('leaves a set at or under the threshold as it is', () => {
    const set = toolSetFromArray(corpus.slice(0, 32).map(definition => executable(definition)))
    expect(withToolSearch(set, { threshold: 32 })).toBe(set)
  })

  it('offers only the always-on tools and find_tools over the threshold, and refuses the others until found', () => {
    const { tools } = largeSet()
    const alwaysOn = [tools[0]!.definition.function.name, tools[1]!.definition.function.name]
    const set = withToolSearch(toolSetFromArray(tools), { threshold: 32, alwaysOn })
    expect(names(set.definitions)).toEqual([...alwaysOn, FIND_TOOLS_NAME])
    expect(set.get('get_weather')).toBeUndefined()
    expect(set.get(alwaysOn[0]!)).toBeDefined()
  })

  it('adds the tools find_tools found to the next request of the loop, and says so in its result', async () => {
    const { tools } = largeSet()
    const set = withToolSearch(toolSetFromArray(tools), { threshold: 32 })
    const model = createScriptedModel([
      toolCallStep([{ name: FIND_TOOLS_NAME, args: { query: 'weather forecast for a city' } }]),
      toolCallStep([{ name: 'get_weather', args: { city: 'Oslo' } }]),
      textStep('It is mild in Oslo.'),
    ])
    const events: LoopEvent[] = []
    const result = await runChatLoop({ model, tools: set, threadId: 't', messages: [{ role: 'user', content: 'Weather in Oslo?' }], onEvent: (event) => { events.push(event) } })

    expect(result.finishReason).toBe('stop')
    expect(names(model.requests[0]!.tools)).toEqual([FIND_TOOLS_NAME])
    expect(names(model.requests[1]!.tools)).toContain('get_weather')
    expect(model.requests[1]!.tools!.length).toBeLessThanOrEqual(6)
    const found = events.find(event => event.type === 'tool-call-done' && event.result.name === FIND_TOOLS_NAME)
    expect(found?.type === 'tool-call-done' && found.result.content).toMatch(/^Loaded \d tools? for "weather forecast for a city"[^\n]*\n(.*\n)*- get_weather: Current weather/)
    const ran = events.find(event => event.type === 'tool-call-done' && event.result.name === 'get_weather')
    expect(ran?.type === 'tool-call-done' && ran.result.content).toBe('ran get_weather')
  })

  it('answers a call to a tool not found yet as an unknown tool, without running it', async () => {
    let ran = false
    const { tools } = largeSet()
    const set = withToolSearch(toolSetFromArray(tools.map(tool => (tool.definition.function.name === 'get_weather' ? executable(tool.definition, () => { ran = true }) : tool))), { threshold: 32 })
    const model = createScriptedModel([toolCallStep([{ name: 'get_weather', args: { city: 'Oslo' } }]), textStep('Sorry.')])
    const events: LoopEvent[] = []
    await runChatLoop({ model, tools: set, threadId: 't', messages: [{ role: 'user', content: 'Weather?' }], onEvent: (event) => { events.push(event) } })
    expect(ran).toBe(false)
    expect(events.some(event => event.type === 'tool-call-error' && event.result.error?.kind === 'no-such-tool')).toBe(true)
  })

  it('offers again the tools an earlier find_tools result in the history loaded (a later turn, a server takeover)', () => {
    const { tools } = largeSet()
    const history: ModelMessage[] = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: FIND_TOOLS_NAME, arguments: '{"query":"weather"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Loaded 1 tool for "weather"; you can call it from your next step on:\n- get_weather: Current weather' },
    ]
    expect(toolsLoadedIn(history)).toEqual(['get_weather'])
    const set = withToolSearch(toolSetFromArray(tools), { threshold: 32, history })
    expect(names(set.definitions)).toEqual(['get_weather', FIND_TOOLS_NAME])
  })

  it('reads tool names as words', () => {
    expect(wordsOfName('getWeather_forecast2')).toBe('get Weather forecast 2')
  })
})

describe('find_tools ranking on the BFCL tool definitions', () => {
  const enabled = seededShuffle(corpus, 301).slice(0, 300)
  const index = createToolSearchIndex(enabled)

  it('finds at least 95% of 300 enabled tools in its top 5 from a query built from their description', () => {
    const hits = enabled.filter(tool => index.search(descriptionQuery(tool), 5).includes(tool.function.name)).length
    expect(hits / enabled.length).toBeGreaterThanOrEqual(0.95)
  })

  it('finds the tool a user question needs in its top 5 for at least 90% of the questions', () => {
    const enabledNames = new Set(enabled.map(tool => tool.function.name))
    const asked = loadCorpusQuestions().filter(question => enabledNames.has(question.tool))
    expect(asked.length).toBeGreaterThan(300)
    const hits = asked.filter(question => index.search(question.text, 5).includes(question.tool)).length
    expect(hits / asked.length).toBeGreaterThanOrEqual(0.9)
  })
})
