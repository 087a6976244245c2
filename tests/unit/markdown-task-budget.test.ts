import { describe, expect, it } from 'vitest'
import { MOUNT_MARKDOWN_BUDGET_MS, markdownTaskBudgetSpent } from '~/utils/chat/markdown/markdown-task-budget'
import { nextTask } from '~/utils/chat/scheduling/yield-to-page'

describe('the markdown budget of one task (messages that mount finished)', () => {
  it('counts from the task\'s first block and is spent after the budget', async () => {
    let time = 5000
    const now = () => time
    expect(markdownTaskBudgetSpent(now)).toBe(false)
    time += MOUNT_MARKDOWN_BUDGET_MS - 1
    expect(markdownTaskBudgetSpent(now)).toBe(false)
    time += 1
    expect(markdownTaskBudgetSpent(now)).toBe(true)
    await nextTask()
  })

  it('gives the next task a budget of its own', async () => {
    let time = 9000
    const now = () => time
    markdownTaskBudgetSpent(now)
    time += 10 * MOUNT_MARKDOWN_BUDGET_MS
    expect(markdownTaskBudgetSpent(now)).toBe(true)
    await nextTask()
    await nextTask()
    expect(markdownTaskBudgetSpent(now)).toBe(false)
  })
})
