import { z } from 'zod'
import { MAX_SHARED_IMAGES_PER_MESSAGE, MAX_SHARED_MESSAGES, SHARED_IMAGE_TYPES } from './share-constants'

/**
 * A shared chat: a read-only copy of the branch a chat showed when its owner shared it. The browser builds it from
 * its own rows, the server checks it whole with this schema before it stores a byte, and the shared page renders
 * it with the app's message and tool-card components. Only fields those components show are kept: no thread
 * settings, no keys, no MCP App HTML (a shared view runs nothing).
 */

export * from './share-constants'

const shortText = (max: number) => z.string().max(max)
const time = z.number().int().nonnegative().max(8.64e15)
// Base64 without line breaks: a linear check, safe on megabytes.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

const sharedImageSchema = z.object({
  name: shortText(300),
  mime: z.enum(SHARED_IMAGE_TYPES),
  /** The image's bytes, base64. */
  data: z.string().min(4).regex(BASE64, 'image data must be base64'),
}).strict()

const toolCallSchema = z.object({
  id: shortText(200),
  type: z.literal('function'),
  function: z.object({ name: shortText(200), arguments: z.string() }).strict(),
}).strict()

const noticeSchema = z.object({ kind: shortText(100), message: shortText(4000) }).strict()

export const sharedMessageSchema = z.object({
  id: z.string().min(1).max(200),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  reasoning: z.string().optional(),
  /** Finished states only: a shared view never streams and never waits. */
  status: z.enum(['complete', 'interrupted', 'stopped', 'error']),
  error: z.object({ kind: shortText(100), message: shortText(4000) }).strict().optional(),
  toolCalls: z.array(toolCallSchema).max(128).optional(),
  toolCallId: shortText(200).optional(),
  toolName: shortText(200).optional(),
  toolArguments: z.string().optional(),
  /** Finished states only (a call still waiting when shared is stored as cancelled). */
  toolStatus: z.enum(['done', 'error', 'cancelled', 'skipped', 'denied']).optional(),
  toolResultFull: z.string().optional(),
  truncated: z.boolean().optional(),
  startedAt: time.optional(),
  finishedAt: time.optional(),
  notices: z.array(noticeSchema).max(20).optional(),
  /** A user message's images, inline. */
  images: z.array(sharedImageSchema).max(MAX_SHARED_IMAGES_PER_MESSAGE).optional(),
  /** Names of the files a message carried that the snapshot does not (documents, images past the caps). */
  files: z.array(shortText(300)).max(64).optional(),
  /** An MCP App's tool call: its name, shown in place of the app, which a shared view does not run. */
  mcpAppName: shortText(300).optional(),
  model: shortText(300).optional(),
  createdAt: time,
}).strict()

export const shareSnapshotSchema = z.object({
  version: z.literal(1),
  title: shortText(500),
  /** When the owner shared it (epoch ms). */
  takenAt: time,
  messages: z.array(sharedMessageSchema).min(1, 'a shared chat needs at least one message').max(MAX_SHARED_MESSAGES),
}).strict()

export type SharedImage = z.infer<typeof sharedImageSchema>
export type SharedMessage = z.infer<typeof sharedMessageSchema>
export type ShareSnapshot = z.infer<typeof shareSnapshotSchema>

