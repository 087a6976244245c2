// Demo model under its worst case: how long one request holds the event loop, from the JSON text to the reply's
// frames (the route's synchronous work). Ours against a naive baseline: the two super-linear parts of the old
// matcher, kept here only for comparison (the old clause separator, cubic on a run of spaces inside a clause, and
// one regex scan of the prompt per offered tool), run on the same prompts. The baseline does less than ours (no
// intents, no reply), so its times are a lower bound for the old model.
// Run: `node --import tsx bench/demo-model.bench.ts` (or `npm run bench demo-model`).
import { pathToFileURL } from 'node:url'
import { parseDemoRequest } from '../server/utils/demo-model/demo-request'
import { prepareDemoReply } from '../server/utils/demo-model/demo-reply'
import { DEFAULT_CHAT_BODY_LIMIT_BYTES, MAX_CHAT_TOOLS } from '../server/utils/http/request-limits'
import { formatSpread, measure, measureInterleaved, printTable, writeResult } from './lib/index'
import type { InterleavedTiming } from './lib/index'

const OLD_CLAUSE_SEPARATOR = /\s*(?:[?;!]+|\.\s+|,?\s+(?:and then|and also|and|also|then|plus)\s+|,\s+)\s*/i
const QUESTION = 'what is 12*7 and what time is it in Tokyo'

function naiveMatching(body: string): number {
  const request = JSON.parse(body) as { messages: { content: string }[], tools: { function: { name: string } }[] }
  const prompt = request.messages.at(-1)!.content
  let found = prompt.split(OLD_CLAUSE_SEPARATOR).length
  for (const { function: { name } } of request.tools) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    found += [...prompt.matchAll(new RegExp(`\\b(?:call|use|run|invoke|trigger|try|execute)\\s+(?:the\\s+)?\`?${escaped}\`?(?![\\w-])`, 'gi'))].length
  }
  return found
}

function ours(body: string): number {
  return prepareDemoReply(parseDemoRequest(JSON.parse(body)), 0).frames.length
}

/** A chat request; `described` tools have 64-character names and 4 KB descriptions, the others short names. */
function body(prompt: string, toolCount: number, described = true): string {
  const tools: { type: 'function', function: { name: string, description?: string } }[] = ['calculate', 'get_current_time'].map(name => ({ type: 'function', function: { name } }))
  while (tools.length < toolCount) {
    tools.push({ type: 'function', function: described ? { name: `tool_${String(tools.length).padStart(59, '0')}`, description: 'Does a thing. '.repeat(300) } : { name: `tool_${tools.length}` } })
  }
  return JSON.stringify({ stream: true, messages: [{ role: 'user', content: prompt }], tools })
}

/** A prompt that fills the chat body limit: the question, then spaces inside the same clause (the worst case). */
function worstCaseBody(): string {
  const empty = body(`${QUESTION}thanks`, MAX_CHAT_TOOLS)
  return body(`${QUESTION}${' '.repeat(DEFAULT_CHAT_BODY_LIMIT_BYTES - empty.length - 16)}thanks`, MAX_CHAT_TOOLS)
}

function words(chars: number): string {
  const list = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit']
  let text = ''
  for (let index = 0; text.length < chars; index++) text += `${list[index % list.length]} `
  return text
}

/** Ours and the naive matcher on one request, round by round; the ratio is naive over ours. */
function sideBySide(text: string) {
  return measureInterleaved([
    { name: 'ours', run: () => ours(text), repeat: 3 },
    { name: 'naive', run: () => naiveMatching(text) },
  ], { rounds: 5, warmup: 1 })
}

function comparedRow(request: string, mine: InterleavedTiming, naive: InterleavedTiming) {
  return { request, 'ours ms': mine.medianMs, 'naive ms': naive.medianMs, 'naive / ours': naive.ratio, 'spread': formatSpread(naive) }
}

/** Milliseconds of one request's synchronous work, ours and the baseline's, per case; the baseline is skipped where it would run for minutes. */
export async function runDemoModelBench() {
  const rows: Record<string, string | number>[] = []
  const spaceRuns = [250, 500, 1_000]
  let naiveAtLargestRun = 0
  for (const spaces of spaceRuns) {
    const text = body(`${QUESTION}${' '.repeat(spaces)}thanks`, MAX_CHAT_TOOLS)
    const [mine, naive] = await sideBySide(text)
    naiveAtLargestRun = naive!.medianMs
    rows.push(comparedRow(`question + ${spaces} spaces, ${MAX_CHAT_TOOLS} tools`, mine!, naive!))
  }

  const worst = worstCaseBody()
  const spacesInWorst = worst.length - body(`${QUESTION}thanks`, MAX_CHAT_TOOLS).length
  const worstMine = await measure(() => ours(worst), { runs: 5, warmup: 1 })
  // Cubic in the run of spaces, extrapolated from the largest run measured above.
  const worstNaiveYears = naiveAtLargestRun * (spacesInWorst / spaceRuns.at(-1)!) ** 3 / (365.25 * 24 * 3600 * 1000)
  rows.push({ 'request': `worst case: ${(worst.length / 1e6).toFixed(2)} MB (question + ${spacesInWorst} spaces, ${MAX_CHAT_TOOLS} tools)`, 'ours ms': worstMine.medianMs, 'naive ms': `~${worstNaiveYears.toPrecision(2)} years (extrapolated)` })

  const pasted = body(words(1_000_000), MAX_CHAT_TOOLS)
  const [pastedMine, pastedNaive] = await sideBySide(pasted)
  rows.push(comparedRow(`1 MB of words, ${MAX_CHAT_TOOLS} tools`, pastedMine!, pastedNaive!))

  // The request: refused at validation now (400); the old model scanned the prompt 10,000 times.
  const overCap = body(words(1_000_000), 10_000, false)
  const refused = await measure(() => {
    try {
      ours(overCap)
    }
    catch {}
  }, { runs: 5, warmup: 1 })
  rows.push({ 'request': `${(overCap.length / 1e6).toFixed(2)} MB: 1 MB of words, 10,000 tools (refused, 400)`, 'ours ms': refused.medianMs, 'naive ms': 'not run (minutes)' })

  printTable('Demo model: synchronous work of one request (JSON text to reply frames), median ms (CPU time where compared: 5 interleaved rounds, ratio = median of the per-round ratios)', rows)
  const path = await writeResult('demo-model', { rows })
  console.log(`written ${path}`)
  return rows
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runDemoModelBench()
}
