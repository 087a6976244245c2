import { z } from 'zod'
import { MAX_CHAT_MESSAGES, MAX_CHAT_TOOLS } from '../http/request-limits'

/**
 * The part of an OpenAI chat-completions request body the demo model reads. Unknown fields
 * (temperature, max_tokens, provider routing, ...) are accepted and ignored, like a real provider would.
 */

const contentPartSchema = z.object({ type: z.string(), text: z.string().optional() }).loose()
const contentSchema = z.union([z.string(), z.array(contentPartSchema), z.null()]).optional()

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string(), arguments: z.string().default('') }),
})

const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: contentSchema }),
  z.object({ role: z.literal('developer'), content: contentSchema }),
  z.object({ role: z.literal('user'), content: contentSchema }),
  z.object({ role: z.literal('assistant'), content: contentSchema, tool_calls: z.array(toolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), content: contentSchema, tool_call_id: z.string(), name: z.string().optional() }),
])

const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
})

/** zod schema of the demo endpoint's body. */
export const demoRequestSchema = z.object({
  model: z.string().optional(),
  messages: z.array(messageSchema).min(1, 'messages must contain at least one message'),
  tools: z.array(toolSchema).optional(),
  tool_choice: z.unknown().optional(),
  stream: z.boolean().optional(),
})

export type DemoRequest = z.infer<typeof demoRequestSchema>
export type DemoMessage = DemoRequest['messages'][number]
export type DemoTool = NonNullable<DemoRequest['tools']>[number]

/** Thrown for a body the demo model cannot read; `message` lists each problem with its path. */
export class DemoRequestError extends Error {
  override readonly name = 'DemoRequestError'
  readonly issues: { path: string, message: string }[]

  constructor(issues: { path: string, message: string }[], options?: { cause?: unknown }) {
    super(`Invalid chat request: ${issues.map(issue => `${issue.path || '(body)'}: ${issue.message}`).join('; ')}`, options)
    this.issues = issues
  }
}

/** Counts over the caps of request-limits.ts, checked before zod walks every element of a huge array. */
function countIssues(body: unknown): { path: string, message: string }[] {
  if (!body || typeof body !== 'object') return []
  const { messages, tools } = body as { messages?: unknown, tools?: unknown }
  const issues: { path: string, message: string }[] = []
  if (Array.isArray(messages) && messages.length > MAX_CHAT_MESSAGES) {
    issues.push({ path: 'messages', message: `has ${messages.length} messages; at most ${MAX_CHAT_MESSAGES} are accepted` })
  }
  if (Array.isArray(tools) && tools.length > MAX_CHAT_TOOLS) {
    issues.push({ path: 'tools', message: `offers ${tools.length} tools; at most ${MAX_CHAT_TOOLS} are accepted` })
  }
  return issues
}

/**
 * Validates a request body: counts within MAX_CHAT_MESSAGES and MAX_CHAT_TOOLS, then the zod schema.
 * The thrown error's message becomes the 400 response's message (see `readDemoRequest`).
 */
export function parseDemoRequest(body: unknown): DemoRequest {
  const overCap = countIssues(body)
  if (overCap.length > 0) throw new DemoRequestError(overCap)
  const result = demoRequestSchema.safeParse(body)
  if (result.success) return result.data
  const issues = result.error.issues.slice(0, 5).map(issue => ({ path: issue.path.join('.'), message: issue.message }))
  throw new DemoRequestError(issues, { cause: result.error })
}

/** The plain text of a message's content (string, or the text parts of a content array). */
export function demoMessageText(content: DemoMessage['content']): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map(part => (typeof part.text === 'string' ? part.text : '')).join('')
}

/** The tools the model may call: none when `tool_choice` is 'none', like OpenAI. */
export function offeredDemoTools(request: DemoRequest): DemoTool[] {
  if (request.tool_choice === 'none') return []
  return request.tools ?? []
}
