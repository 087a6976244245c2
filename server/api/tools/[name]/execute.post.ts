import { z } from 'zod'
import type { ServerToolExecution } from '#shared/types/server-tools'
import { readBoundedJson } from '../../../utils/http/read-bounded-body'
import { TOOL_BODY_LIMIT_BYTES } from '../../../utils/http/request-limits'
import { executeServerTool } from '../../../utils/chat/tool-registry'

const executeRequestSchema = z.object({ arguments: z.string() })

/**
 * POST /api/tools/:name/execute `{ arguments }` (the JSON text the model wrote): runs one server tool through
 * executeServerTool and answers `{ result, toolName, timedOut, error? }`. The guard has checked the session and
 * counted the run; the tool's own timeout and result cap apply, and the run is aborted if the browser goes away.
 */
export default defineEventHandler(async (event): Promise<ServerToolExecution> => {
  const name = getRouterParam(event, 'name', { decode: true }) ?? ''
  const parsed = executeRequestSchema.safeParse(await readBoundedJson(event, TOOL_BODY_LIMIT_BYTES))
  if (!parsed.success) {
    throw createError({ statusCode: 400, statusMessage: 'Bad Request', message: 'The body must be { "arguments": "<the arguments as JSON text>" }.' })
  }
  const controller = new AbortController()
  const response = event.node.res
  const onClose = () => {
    if (!response.writableFinished) controller.abort(new Error('The browser closed the request.'))
  }
  response.once('close', onClose)
  try {
    const execution = await executeServerTool(name, parsed.data.arguments, { signal: controller.signal, threadId: 'browser' })
    const { runtime: _runtime, ...answer } = execution
    // Tool failures are data (200); only a name the registry does not know (the one answer without a runtime) is a 404.
    if (!execution.runtime) setResponseStatus(event, 404, 'Not Found')
    return answer
  }
  finally {
    response.off('close', onClose)
  }
})
