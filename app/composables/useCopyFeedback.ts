import { getCurrentScope, onScopeDispose, shallowRef, toValue, type MaybeRefOrGetter } from 'vue'
import { announce, COPY_FEEDBACK_MS, copyOutcomeLabel, copyText, type CopyOutcome } from '~/utils/chat/markdown/clipboard'

export interface UseCopyFeedbackOptions {
  /** How long the outcome stays shown, in ms. @default COPY_FEEDBACK_MS (2 s) */
  feedbackMs?: number
  /** What screen readers hear after a successful copy. @default 'Copied' */
  announcement?: string
}

/**
 * Copies `text` on demand and keeps the outcome (`'copied'` / `'failed'`) for a moment, announced politely to
 * screen readers; `outcome` goes back to undefined afterwards. The timer is cleared with the calling scope.
 */
export function useCopyFeedback(text: MaybeRefOrGetter<string>, options: UseCopyFeedbackOptions = {}) {
  const { feedbackMs = COPY_FEEDBACK_MS, announcement = 'Copied' } = options
  const outcome = shallowRef<CopyOutcome>()
  let timer: ReturnType<typeof setTimeout> | undefined

  async function copy(): Promise<CopyOutcome> {
    const result = await copyText(toValue(text))
    outcome.value = result
    announce(result === 'copied' ? announcement : copyOutcomeLabel(result))
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      outcome.value = undefined
    }, feedbackMs)
    return result
  }

  if (getCurrentScope()) {
    onScopeDispose(() => {
      if (timer !== undefined) clearTimeout(timer)
    })
  }

  return { outcome, copy }
}
