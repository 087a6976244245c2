import { demoMessageText } from './demo-request'
import type { DemoRequest } from './demo-request'
import { demoHash, planDemoReply } from './demo-plan'
import type { DemoPlan } from './demo-plan'
import { buildDemoCompletion, buildDemoFrames } from './demo-frames'
import type { DemoCompletionMeta, DemoFrame } from './demo-frames'
import { DEMO_MODEL_ID } from './demo-models'

/** Everything the route needs to answer one request. */
export interface DemoReply {
  plan: DemoPlan
  meta: DemoCompletionMeta
  /** Stream frames (for `stream: true`). */
  frames: DemoFrame[]
  /** The same reply as one JSON completion (for `stream: false`). */
  completion: ReturnType<typeof buildDemoCompletion>
}

/**
 * Plans a reply and renders it both ways. `createdSeconds` is the only input that is not derived from the
 * request, so tests pass a fixed value and get identical output.
 */
export function prepareDemoReply(request: DemoRequest, createdSeconds: number): DemoReply {
  const plan = planDemoReply(request)
  const promptChars = request.messages.reduce((sum, message) => sum + demoMessageText(message.content).length, 0)
  const meta: DemoCompletionMeta = {
    id: `gen-demo-${demoHash(JSON.stringify(request.messages))}`,
    model: request.model || DEMO_MODEL_ID,
    created: createdSeconds,
    promptChars,
  }
  return { plan, meta, frames: buildDemoFrames(plan, meta), completion: buildDemoCompletion(plan, meta) }
}
