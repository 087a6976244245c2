// The demo model's work grows linearly with the request, measured deterministically: every regular expression it
// runs is interpreted and its backtracking steps counted (tests/unit/helpers/measure-work.ts), together with
// the characters that string built-ins scan. Linear work at n and 4n differs by a factor of at most 4; anything
// that backtracks over a run once per character of it (quadratic), or scans the prompt once per tool, shows as 16.
import { describe, expect, it } from 'vitest'
import { measureWork } from '~~/tests/unit/helpers/measure-work'
import { prepareDemoReply } from '~~/server/utils/demo-model/demo-reply'
import { splitDemoClauses } from '~~/server/utils/demo-model/demo-intents'
import { DEMO_PROMPT_WINDOW_CHARS } from '~~/server/utils/demo-model/demo-limits'
import type { DemoRequest, DemoTool } from '~~/server/utils/demo-model/demo-request'

const tool = (name: string, description = name): DemoTool => ({ type: 'function', function: { name, description, parameters: { type: 'object', properties: {} } } })
const DEMO_TOOLS = ['calculate', 'get_current_time', 'get_weather', 'search_chat_history', 'slow_tool'].map(name => tool(name))

function workOf(request: DemoRequest): number {
  return measureWork(() => prepareDemoReply(request, 0)).work
}

function ask(prompt: string, tools: DemoTool[] = DEMO_TOOLS): DemoRequest {
  return { messages: [{ role: 'user', content: prompt }], tools, stream: true }
}

// Prompts of about n characters, each built against one pattern that used to backtrack (or rescan) super-linearly.
const ADVERSARIAL_PROMPTS: [string, (n: number) => string][] = [
  ['a run of spaces inside a clause (the clause separator was cubic)', n => `what is 12*7 and what time is it in Tokyo${' '.repeat(n)}thanks`],
  ['spaces and tabs after a weather question', n => `weather in Paris${' \t'.repeat(n / 2)}x`],
  ['spaces between "what is" and a second line', n => `what is${' '.repeat(n)}x\ny`],
  ['a run of digits (the embedded expression)', n => '1'.repeat(n)],
  ['a run of "=" after an expression (the trailing trim)', n => `calculate 1${'='.repeat(n)}x`],
  ['a run of dots after an expression', n => `calculate 1${'.'.repeat(n)}x`],
  ['a run of quotes inside a search query', n => `search my chats for x${'"'.repeat(n)}y`],
  ['"search my chats for" again and again before a line break', n => `${'search my chats for x '.repeat(n / 22)}\nthanks`],
  ['"find" again and again with no "in my chats"', n => 'find x '.repeat(n / 7)],
  ['"call slow_tool" again and again, and one "{" at the end (the search for each call\'s JSON)', n => `${'call slow_tool '.repeat(n / 15)}{`],
  ['"and" again and again', n => `what is 1+1${' and'.repeat(n / 4)}`],
  ['words that are almost a city', n => `what time is it in ${'tokyoo '.repeat(n / 7)}`],
]

describe('the work meter', () => {
  it('sees the old clause separator go super-linear on a run of spaces, so a passing test below means something', () => {
    const oldSeparator = /\s*(?:[?;!]+|\.\s+|,?\s+(?:and then|and also|and|also|then|plus)\s+|,\s+)\s*/i
    const work = (n: number) => measureWork(() => `a${' '.repeat(n)}x`.split(oldSeparator)).work
    expect(work(160) / work(40)).toBeGreaterThan(16)
  })

  it('counts the same work for the same call', () => {
    const request = ask('what is 2+2 and what time is it in Paris')
    expect(workOf(request)).toBe(workOf(request))
  })
})

describe('demo model work grows linearly with the request', () => {
  it.each(ADVERSARIAL_PROMPTS)('%s: 4 times the prompt costs at most 4 times the work', (_, build) => {
    expect(workOf(ask(build(4_000))) / workOf(ask(build(1_000)))).toBeLessThanOrEqual(4)
  })

  it('offers 4 times the tools with a 4 times longer prompt for at most 4 times the work (no scan of the prompt per tool)', () => {
    const request = (tools: number, promptChars: number) => ask(
      'call x '.repeat(promptChars / 7),
      Array.from({ length: tools }, (_, index) => tool(`tool_${String(index).padStart(58, '0')}`, 'd'.repeat(2_000))),
    )
    const [small, large] = [workOf(request(32, 1_000)), workOf(request(128, 4_000))]
    expect(large / small).toBeLessThanOrEqual(4)
  })

  it(`reads no more than the first ${DEMO_PROMPT_WINDOW_CHARS} characters of the prompt for its script`, () => {
    // Past the window a character costs only the few linear passes that read the whole conversation (the ids
    // hash it), not the ~50 steps per character that the script spends on what it reads.
    const request = (chars: number) => ask(`what is 12*7${' '.repeat(chars)}thanks`)
    const [small, large] = [workOf(request(16_000)), workOf(request(1_000_000))]
    expect(large - small).toBeLessThan(3 * 1_000_000)
  })
})

describe('clause splitting keeps its old behaviour', () => {
  it('splits 3,000 random prompts exactly as the old (cubic) separator did', () => {
    const oldSeparator = /\s*(?:[?;!]+|\.\s+|,?\s+(?:and then|and also|and|also|then|plus)\s+|,\s+)\s*/i
    const oldSplit = (text: string) => text.split(oldSeparator).map(clause => clause.trim()).filter(Boolean)
    const pieces = [' ', '  ', '\t', '\n', ',', '.', '?', '!', ';', 'and', 'then', 'also', 'plus', 'and then', 'AND', 'x', '12', '3.5', '+']
    let seed = 1
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648
    for (let round = 0; round < 3_000; round++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => pieces[Math.floor(next() * pieces.length)]! + (next() < 0.5 ? ' ' : '')).join('')
      expect(splitDemoClauses(text), JSON.stringify(text)).toEqual(oldSplit(text))
    }
  })
})
