import type { H3Event } from 'h3'
import { readBoundedJson } from '../http/read-bounded-body'
import { chatBodyLimitBytes } from '../http/request-limits'
import { parseDemoRequest } from './demo-request'
import type { DemoRequest } from './demo-request'

/**
 * The demo endpoint's body, read and validated. A body over the chat body limit is refused with 413 before it
 * is buffered; an invalid one gets the 400 `readValidatedBody` gives (statusMessage "Validation Error", the
 * validator's message, its issues as `data`), which h3 does not export on its own.
 */
export async function readDemoRequest(event: H3Event): Promise<DemoRequest> {
  // `maxBodyBytes` is read loosely: a config without it (or with nonsense in it) falls back to the default limit.
  const { maxBodyBytes } = useRuntimeConfig(event) as { maxBodyBytes?: unknown }
  const body = await readBoundedJson(event, chatBodyLimitBytes(maxBodyBytes))
  try {
    return parseDemoRequest(body)
  }
  catch (error) {
    throw createError({ status: 400, statusMessage: 'Validation Error', message: (error as Error).message, data: error })
  }
}
