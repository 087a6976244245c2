import { describe, expect, it } from 'vitest'
import type { DemoRequest, DemoTool } from '~~/server/utils/demo-model/demo-request'
import { planDemoReply } from '~~/server/utils/demo-model/demo-plan'
import { DENIED_CONTENT, NO_ANSWER_CONTENT } from '#shared/loop/tool-approval'

function tool(name: string, properties: Record<string, unknown> = {}, required: string[] = [], description = name): DemoTool {
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties, required } } }
}

const calculate = tool('calculate', { expression: { type: 'string' } }, ['expression'])
const currentTime = tool('get_current_time', { timezone: { type: 'string' } })
const weather = tool('get_weather', { city: { type: 'string' } }, ['city'])
const addNumbers = tool('add_numbers', { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b'], 'Adds two numbers')
const reverseText = tool('reverse_text', { text: { type: 'string' } }, ['text'], 'Reverses the letters of a text')
const mcpEcho = tool('everything__echo', { message: { type: 'string' } }, ['message'], 'Echoes back the input')
const mcpUnits = tool('units__convert_temperature', { value: { type: 'number' }, to: { type: 'string', enum: ['celsius', 'fahrenheit'] } }, ['value', 'to'], 'Convert a temperature')

function ask(text: string, tools: DemoTool[]): DemoRequest {
  return { messages: [{ role: 'user', content: text }], tools, stream: true }
}

function callsOf(text: string, tools: DemoTool[]) {
  return planDemoReply(ask(text, tools)).toolCalls.map(call => ({ name: call.name, arguments: JSON.parse(call.arguments) }))
}

describe('demo model: every part of a compound question', () => {
  it('calls the calculator for each expression of "what is 1/0 and sqrt(-4)"', () => {
    expect(callsOf('what is 1/0 and sqrt(-4)', [calculate])).toEqual([
      { name: 'calculate', arguments: { expression: '1/0' } },
      { name: 'calculate', arguments: { expression: 'sqrt(-4)' } },
    ])
  })

  it('answers a time and a sum asked together', () => {
    expect(callsOf('what time is it in Tokyo and what is 2+2?', [calculate, currentTime]).map(call => call.name)).toEqual(['get_current_time', 'calculate'])
  })

  it('does not read a word with a bracket as math', () => {
    expect(callsOf('tell me about sqrt', [calculate])).toEqual([])
  })
})

describe('demo model: says when it cannot know', () => {
  it('does not answer the time on Mars with an Earth time zone', () => {
    const plan = planDemoReply(ask('what time is it on Mars', [currentTime]))
    expect(plan.toolCalls).toEqual([])
    expect(plan.text).toMatch(/can't tell the time on Mars/)
    expect(plan.text).toContain('Scripted demo')
  })

  it('still answers the other part of the question', () => {
    const plan = planDemoReply(ask('what time is it on the moon and what is 6*7', [currentTime, calculate]))
    expect(plan.toolCalls.map(call => call.name)).toEqual(['calculate'])
    expect(plan.text).toMatch(/time on the Moon/)
  })

  it('keeps answering the time in a city', () => {
    expect(callsOf('what time is it in Paris', [currentTime])).toEqual([{ name: 'get_current_time', arguments: { timezone: 'Europe/Paris' } }])
  })
})

describe('demo model: the user\'s own and MCP tools from plain words', () => {
  it('calls add_numbers for "add 2 and 40", with numbers in the schema\'s names', () => {
    expect(callsOf('add 2 and 40', [calculate, addNumbers, reverseText])).toEqual([{ name: 'add_numbers', arguments: { a: 2, b: 40 } }])
  })

  it('reads a text argument after the tool\'s word, or in quotes', () => {
    expect(callsOf('reverse hello world', [addNumbers, reverseText])).toEqual([{ name: 'reverse_text', arguments: { text: 'hello world' } }])
    expect(callsOf('please echo "ping pong"', [mcpEcho])).toEqual([{ name: 'everything__echo', arguments: { message: 'ping pong' } }])
  })

  it('fills a number and a choice from an MCP tool\'s schema', () => {
    expect(callsOf('temperature 100 as fahrenheit please', [mcpUnits])).toEqual([{ name: 'units__convert_temperature', arguments: { value: 100, to: 'fahrenheit' } }])
  })

  it('does not call a tool when a required argument is missing or nothing names it', () => {
    expect(callsOf('add some more', [addNumbers])).toEqual([])
    expect(callsOf('hello there', [addNumbers, reverseText, mcpEcho])).toEqual([])
  })

  it('calls a user tool and a scripted tool in one message', () => {
    expect(callsOf('add 2 and 40, then what time is it in Tokyo', [addNumbers, currentTime]).map(call => call.name)).toEqual(['add_numbers', 'get_current_time'])
  })
})

describe('demo model: a call that did not run', () => {
  function answerAfter(content: string) {
    return planDemoReply({
      messages: [
        { role: 'user', content: 'weather in Paris' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content },
      ],
      tools: [weather],
    }).text
  }

  it('tells the user they denied it, without the words meant for the model', () => {
    const text = answerAfter(DENIED_CONTENT)
    expect(text).toContain('You denied `get_weather`')
    expect(text).not.toContain('Do not call it again')
  })

  it('says nobody answered, without the model\'s instructions', () => {
    expect(answerAfter(NO_ANSWER_CONTENT)).not.toContain('Do not call it again')
  })
})

describe('demo model: plain words never guess a tool\'s text', () => {
  const fetchPage = tool('fetch_web_page', { url: { type: 'string' } }, ['url'], 'Fetch a public web page and return its readable text: the title and the main text')

  it('calls a page tool only with a URL from the message', () => {
    expect(callsOf('what is the title of the main page', [fetchPage])).toEqual([])
    expect(callsOf('fetch the page https://example.com/a.', [fetchPage])).toEqual([{ name: 'fetch_web_page', arguments: { url: 'https://example.com/a' } }])
  })

  it('does not fill a text parameter from a description match alone', () => {
    const translate = tool('lingo', { text: { type: 'string' } }, ['text'], 'Translates sentences between languages')
    expect(callsOf('translate sentences for me', [translate])).toEqual([])
    expect(callsOf('translate sentences "bonjour"', [translate])).toEqual([{ name: 'lingo', arguments: { text: 'bonjour' } }])
  })
})
