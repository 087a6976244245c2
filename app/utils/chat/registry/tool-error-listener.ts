import type { LoopEvent } from '#shared/loop/loop-event'
import type { ToolRegistry } from './tool-registry-types'

/**
 * A LoopEvent listener that keeps each tool's `lastError` (the popover's "Last run failed" mark) in step with its
 * runs: a success clears it, a failure of the tool sets it. Bad arguments are the model's mistake and a cancel or
 * a skipped repeat is nobody's, so they leave the mark as it was.
 */
export function createToolErrorListener(registry: Pick<ToolRegistry, 'setLastError'>): (event: LoopEvent) => void {
  return (event) => {
    if (event.type === 'tool-call-done') registry.setLastError(event.result.name, null)
    if (event.type !== 'tool-call-error') return
    const { result } = event
    if (result.status === 'error' && result.error && result.error.kind !== 'invalid-input') registry.setLastError(result.name, result.error.message)
  }
}
