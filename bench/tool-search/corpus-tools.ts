import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { ToolDefinition } from '../../shared/types/chat'

const CORPUS = resolve(import.meta.dirname, '../../tests/fixtures/corpora/tool-schemas')

/** The corpus's definitions, one per name (the first). */
export function loadCorpusTools(): ToolDefinition[] {
  const all = JSON.parse(readFileSync(resolve(CORPUS, 'bfcl_tools.openai.json'), 'utf8')) as ToolDefinition[]
  const byName = new Map<string, ToolDefinition>()
  for (const tool of all) if (!byName.has(tool.function.name)) byName.set(tool.function.name, tool)
  return [...byName.values()]
}

/** The corpus's user questions whose sample calls use exactly one tool. */
export function loadCorpusQuestions(): { text: string, tool: string }[] {
  const samples = JSON.parse(readFileSync(resolve(CORPUS, 'bfcl_sample_calls.json'), 'utf8')) as { messages: { role: string, content: string }[], calls: { name: string }[] }[]
  return samples
    .filter(sample => new Set(sample.calls.map(call => call.name)).size === 1)
    .map(sample => ({ text: sample.messages.filter(message => message.role === 'user').map(message => message.content).join(' '), tool: sample.calls[0]!.name }))
}

/**
 * A query as a model would write it from what the tool does: the description's first sentence, its first eight
 * words, without the tool's name (the model does not know the name; that is what it searches for).
 */
export function descriptionQuery(tool: ToolDefinition): string {
  const description = tool.function.description ?? ''
  const sentence = description.split(/(?<=[.!?])\s/)[0] ?? description
  return sentence.split(/\s+/).filter(Boolean).slice(0, 8).join(' ')
}

/** A reproducible shuffle (mulberry32), so the figures can be run again. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0
  const random = () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const copy = [...items]
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
  }
  return copy
}
