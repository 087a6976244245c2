import type { DemoPlan } from './demo-plan'

/** Identity of one completion, shared by all its chunks. */
export interface DemoCompletionMeta {
  id: string
  model: string
  /** Unix seconds. */
  created: number
  /** Characters of the prompt, for the (estimated) usage numbers. */
  promptChars: number
}

/** One SSE event: a JSON payload, or the `[DONE]` sentinel. */
export type DemoFrame = { data: Record<string, unknown> } | { data: '[DONE]' }

/** Pieces of `text` of `wordsPerChunk` words each, whitespace kept, so the pieces join back to `text`. */
export function splitDemoText(text: string, wordsPerChunk: number): string[] {
  const words = text.match(/\s*\S+\s*?(?=\s|$)|\s+$/g) ?? []
  const pieces: string[] = []
  for (let index = 0; index < words.length; index += wordsPerChunk) pieces.push(words.slice(index, index + wordsPerChunk).join(''))
  return pieces
}

/** Argument text in fragments of `size` characters, like providers stream them (`{"`, `expr`, `ession":`...). */
export function splitDemoArguments(argumentsText: string, size = 6): string[] {
  const fragments: string[] = []
  for (let index = 0; index < argumentsText.length; index += size) fragments.push(argumentsText.slice(index, index + size))
  return fragments
}

/** A rough, deterministic token count (4 characters per token). */
export function estimateDemoTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4))
}

/** The usage object of a plan, in OpenAI/OpenRouter shape (cost 0: nothing is billed). */
export function demoUsage(plan: DemoPlan, promptChars: number) {
  const outputChars = plan.text.length + (plan.reasoning?.length ?? 0) + plan.toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0)
  const prompt = estimateDemoTokens(promptChars)
  const completion = estimateDemoTokens(outputChars)
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cost: 0,
    completion_tokens_details: { reasoning_tokens: plan.reasoning ? estimateDemoTokens(plan.reasoning.length) : 0 },
  }
}

/**
 * The `chat.completion.chunk` events of a plan, in order: role, reasoning deltas, text deltas, tool calls
 * (id and name first, then argument fragments), the finish chunk, the usage chunk and `[DONE]`.
 * The error scenario ends with the error object instead, without `[DONE]`, like OpenRouter.
 */
export function buildDemoFrames(plan: DemoPlan, meta: DemoCompletionMeta): DemoFrame[] {
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): DemoFrame => ({
    data: {
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      provider: 'Plugboard demo',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
      ...extra,
    },
  })
  const frames: DemoFrame[] = [chunk({ role: 'assistant', content: '' })]
  if (plan.reasoning) {
    for (const piece of splitDemoText(plan.reasoning, plan.wordsPerChunk)) frames.push(chunk({ content: '', reasoning: piece }))
  }
  for (const piece of splitDemoText(plan.text, plan.wordsPerChunk)) frames.push(chunk({ content: piece }))
  if (plan.streamError) {
    frames.push({ data: { error: { ...plan.streamError } } })
    return frames
  }
  plan.toolCalls.forEach((call, index) => {
    frames.push(chunk({ content: null, tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }))
    for (const fragment of splitDemoArguments(call.arguments)) {
      frames.push(chunk({ content: null, tool_calls: [{ index, function: { arguments: fragment } }] }))
    }
  })
  frames.push(chunk({}, plan.toolCalls.length > 0 ? 'tool_calls' : 'stop'))
  frames.push({ data: { id: meta.id, object: 'chat.completion.chunk', created: meta.created, model: meta.model, choices: [], usage: demoUsage(plan, meta.promptChars) } })
  frames.push({ data: '[DONE]' })
  return frames
}

/** The whole reply as one `chat.completion` object, for `stream: false`. */
export function buildDemoCompletion(plan: DemoPlan, meta: DemoCompletionMeta) {
  const message: Record<string, unknown> = { role: 'assistant', content: plan.toolCalls.length > 0 && !plan.text ? null : plan.text }
  if (plan.reasoning) message.reasoning = plan.reasoning
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map(call => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }))
  }
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    provider: 'Plugboard demo',
    choices: [{ index: 0, message, finish_reason: plan.toolCalls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: demoUsage(plan, meta.promptChars),
  }
}

/** SSE encoding of one frame. */
export function encodeDemoFrame(frame: DemoFrame): string {
  return `data: ${typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data)}\n\n`
}
