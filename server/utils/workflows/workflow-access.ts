import type { H3Event } from 'h3'
import { requireOwner } from '../accounts/request-owner'
import { useWorkflowStore } from './use-workflow-store'
import type { Workflow } from './workflow-types'

/** The workflow named by the route, when the request's owner (session or account) owns it; anybody else's answers 404 like a missing one. */
export async function requireOwnWorkflow(event: H3Event): Promise<Workflow> {
  const { ownerId } = await requireOwner(event)
  const workflow = await useWorkflowStore().get(ownerId, getRouterParam(event, 'id') ?? '')
  if (!workflow) throw createError({ statusCode: 404, statusMessage: 'Not Found', message: 'No such workflow.' })
  return workflow
}

/** A 400 with the first problem of a body, in words. */
export function invalidWorkflow(issues: { message: string, path: PropertyKey[] }[]): Error {
  const first = issues[0]
  const where = first?.path.length ? ` (${first.path.join('.')})` : ''
  return createError({ statusCode: 400, statusMessage: 'Bad Request', message: `Invalid workflow: ${first?.message ?? 'bad body'}${where}` })
}
