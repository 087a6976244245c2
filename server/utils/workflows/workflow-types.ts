import { z } from 'zod'
import { checkChatParameters } from '#shared/loop/chat-settings'
import type { ChatParameters } from '#shared/types/chat-parameters'

/** Workflows one session may keep: past it, creating one is refused (409). */
export const MAX_WORKFLOWS_PER_SESSION = 50

/** What a user writes to define a workflow: a saved recipe for a background chat. */
export const workflowInputSchema = z.object({
  name: z.string().trim().min(1, 'Give the workflow a name.').max(80, 'The name is too long (80 characters at most).'),
  systemPrompt: z.string().max(8000, 'The system prompt is too long (8,000 characters at most).').default(''),
  model: z.string().trim().min(1, 'Choose a model.').max(200),
  /** Server tools switched on for its runs (names); others are not offered. */
  tools: z.array(z.string().min(1).max(64)).max(64).default([]),
  /** What the run asks first; a run may give its own message instead. */
  firstMessage: z.string().max(4000, 'The first message is too long (4,000 characters at most).').optional(),
  /** Sampling parameters of its runs (temperature, top_p, max tokens, reasoning effort), checked as a chat's are. */
  parameters: z.record(z.string(), z.unknown()).superRefine((value, context) => {
    const issue = checkChatParameters(value)[0]
    if (issue) context.addIssue({ code: 'custom', message: issue.message })
  }).transform(value => value as ChatParameters).optional(),
}).strict()

export type WorkflowInput = z.infer<typeof workflowInputSchema>

/** A stored workflow, owned by the browser session that made it. */
export interface Workflow extends WorkflowInput {
  id: string
  sessionId: string
  createdAt: number
  updatedAt: number
}

/** The body of POST /api/workflows/:id/run. */
export const workflowRunSchema = z.object({
  /** The browser's thread the run's chat is recorded in. */
  threadId: z.string().min(1).max(200),
  /** Asked instead of the workflow's first message. */
  message: z.string().max(4000, 'The message is too long (4,000 characters at most).').optional(),
}).strict()
