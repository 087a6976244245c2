import { isRecord } from '#shared/types/is-record'
import { z } from 'zod'

/**
 * The chat request fields the server's key forwards, with the shape each must have: the documented allow-list of
 * the operator's policy (openrouter-body-policy.ts). It covers what the app sends (shared/stream/
 * openai-compatible-model.ts: model, messages, stream, stream_options, tools, tool_choice) and the OpenAI-compatible
 * options OpenRouter documents that bill nothing beyond tokens. A field not listed here is refused by name; keys
 * unknown inside a message, a content part or a tool are dropped (clients echo reply fields such as `refusal` or
 * `annotations` back in their history, and those change nothing the request costs).
 *
 * Paid options are not listed: `plugins` and `web_search_options` (web search) and `provider` (routing) are read by
 * the policy itself, only when the operator allows them. Neither are `modalities`/`audio` (image and audio output),
 * `service_tier` (priority pricing), `prediction` or `debug`.
 */

/** A JSON object passed on as it is (a tool's JSON Schema, a response schema). */
const jsonObject = z.custom<Record<string, unknown>>(isRecord, 'expected an object')

const text = (max: number) => z.string().max(max)
const HUGE_TEXT = 1_000_000
/** An image as a `data:` URL: an image the app stores (at most 2 MB) in base64, with room to spare. */
const IMAGE_URL_CHARS = 4_000_000

const textPart = z.object({ type: z.literal('text'), text: text(HUGE_TEXT) })
const imagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: text(IMAGE_URL_CHARS), detail: z.enum(['auto', 'low', 'high']).optional() }),
})
// No `file` parts: on a model that cannot read PDFs itself, OpenRouter parses them with a paid OCR engine.
const userContent = z.union([text(HUGE_TEXT), z.array(z.discriminatedUnion('type', [textPart, imagePart])).max(256)])
const textContent = z.union([text(HUGE_TEXT), z.array(textPart).max(256)])

const toolCall = z.object({
  id: text(256),
  type: z.literal('function'),
  function: z.object({ name: text(256), arguments: text(HUGE_TEXT) }),
})

const name = text(64).optional()

/** One message of the history: the OpenAI roles, their known keys only. */
export const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: textContent, name }),
  z.object({ role: z.literal('developer'), content: textContent, name }),
  z.object({ role: z.literal('user'), content: userContent, name }),
  z.object({
    role: z.literal('assistant'),
    content: textContent.nullable().optional(),
    name,
    tool_calls: z.array(toolCall).max(128).optional(),
    // What reasoning models need back on the next turn (billed as input tokens like any text).
    reasoning: text(HUGE_TEXT).nullable().optional(),
    reasoning_details: z.array(jsonObject).max(256).optional(),
  }),
  z.object({ role: z.literal('tool'), content: textContent, tool_call_id: text(256), name }),
])

/** One offered tool: a function only (other tool types may be a provider's paid server-side tools). */
export const toolSchema = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().min(1).max(64).regex(/^[\w.-]+$/, 'a tool name has letters, digits, _ . - only'),
    description: text(16_384).optional(),
    parameters: jsonObject.optional(),
    strict: z.boolean().nullable().optional(),
  }),
})

const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1).max(64) }) }),
])

const responseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({ name: text(64), description: text(4096).optional(), schema: jsonObject.optional(), strict: z.boolean().nullable().optional() }),
  }),
])

const number = (min: number, max: number) => z.number().min(min).max(max).nullish()
const tokens = z.number().nullish()

/** Every top-level field the server's key forwards, keyed by name (the policy refuses any other by its name). */
export const FORWARDED_FIELDS = {
  model: text(256),
  // OpenRouter's fallback list: every entry must pass the model allow-list too.
  models: z.array(text(256)).max(8).optional(),
  messages: z.array(messageSchema),
  tools: z.array(toolSchema).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: z.boolean().nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  n: z.literal(1).nullish(),
  max_tokens: tokens,
  max_completion_tokens: tokens,
  temperature: number(0, 2),
  top_p: number(0, 1),
  top_k: z.number().int().min(0).max(1_000_000).nullish(),
  min_p: number(0, 1),
  top_a: number(0, 1),
  frequency_penalty: number(-2, 2),
  presence_penalty: number(-2, 2),
  repetition_penalty: number(0, 2),
  seed: z.number().int().nullish(),
  stop: z.union([text(1000), z.array(text(1000)).max(4)]).nullish(),
  logit_bias: z.record(z.string().max(32), z.number().min(-100).max(100))
    .refine(bias => Object.keys(bias).length <= 300, 'at most 300 entries').nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  response_format: responseFormat.nullish(),
  reasoning: z.object({
    effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).optional(),
    max_tokens: tokens,
    exclude: z.boolean().optional(),
    enabled: z.boolean().optional(),
  }).nullish(),
  usage: z.object({ include: z.boolean().optional() }).nullish(),
  verbosity: z.enum(['low', 'medium', 'high']).nullish(),
  // 'middle-out' shortens a history that does not fit the context; it costs nothing.
  transforms: z.array(z.enum(['middle-out'])).max(1).nullish(),
  user: text(256).nullish(),
}

export type ForwardedField = keyof typeof FORWARDED_FIELDS

/** Web search, when the operator allows it (`NUXT_OPENROUTER_ALLOW_WEB_SEARCH`): results are billed per request. */
export const WEB_SEARCH_FIELDS = {
  plugins: z.array(z.object({
    id: z.literal('web'),
    // Each result is billed; OpenRouter's default is 5.
    max_results: z.number().int().min(1).max(10).optional(),
    search_prompt: text(4096).optional(),
    engine: z.enum(['native', 'exa']).optional(),
  })).max(1).optional(),
  web_search_options: z.object({ search_context_size: z.enum(['low', 'medium', 'high']).optional() }).optional(),
}

const price = z.number().min(0).optional()

/** Provider routing, when the operator allows it (`NUXT_OPENROUTER_ALLOW_PROVIDER_ROUTING`). */
export const PROVIDER_ROUTING_FIELDS = {
  provider: z.object({
    order: z.array(text(128)).max(32).optional(),
    allow_fallbacks: z.boolean().optional(),
    require_parameters: z.boolean().optional(),
    data_collection: z.enum(['allow', 'deny']).optional(),
    zdr: z.boolean().optional(),
    only: z.array(text(128)).max(32).optional(),
    ignore: z.array(text(128)).max(32).optional(),
    quantizations: z.array(text(32)).max(16).optional(),
    sort: z.enum(['price', 'throughput', 'latency']).optional(),
    max_price: z.object({ prompt: price, completion: price, image: price, request: price }).optional(),
  }).optional(),
}
