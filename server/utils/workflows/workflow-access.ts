import type { H3Event } from 'h3'
import { requireOwner } from '../accounts/request-owner'
import { useWorkflowStore } from './use-workflow-store'
import type { Workflow } from './workflow-types'
import { userError } from '../http/user-error'

/** The workflow named by the route, when the request's owner (session or account) owns it; anybody else's answers 404 like a missing one. */
export async function requireOwnWorkflow(event: H3Event): Promise<Workflow> {
  const { ownerId } = await requireOwner(event)
  const workflow = await useWorkflowStore().get(ownerId, getRouterParam(event, 'id') ?? '')
  if (!workflow) throw userError(404, 'Not Found', 'server.workflow.missing')
  return workflow
}

/** A 400 with the first problem of a body, in words. */
export function invalidWorkflow(issues: { message: string, path: PropertyKey[] }[]): Error {
  const first = issues[0]
  const reason = first?.message ?? 'bad body'
  return first?.path.length
    ? userError(400, 'Bad Request', 'server.workflow.invalidAt', { reason, path: first.path.join('.') })
    : userError(400, 'Bad Request', 'server.workflow.invalid', { reason })
}
