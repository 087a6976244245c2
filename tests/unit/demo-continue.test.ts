import { describe, expect, it } from 'vitest'
import { planDemoReply } from '~~/server/utils/demo-model/demo-plan'
import type { DemoRequest } from '~~/server/utils/demo-model/demo-request'
import { CONTINUE_INSTRUCTION, isContinueRequest } from '#shared/loop/continue-reply'

const question = { role: 'user' as const, content: 'Tell me something long' }

describe('the demo model asked to continue a cut reply', () => {
  it('streams exactly the rest of the reply it was cut from', () => {
    const whole = planDemoReply({ messages: [question] }).text
    const partial = whole.slice(0, 137)
    const request: DemoRequest = { messages: [question, { role: 'assistant', content: partial }, { role: 'user', content: CONTINUE_INSTRUCTION }] }
    const plan = planDemoReply(request)
    expect(plan.scenario).toBe('continue')
    expect(partial + plan.text).toBe(whole)
    expect(plan.toolCalls).toEqual([])
  })

  it('writes the whole reply again when the cut text is not its start', () => {
    const request: DemoRequest = { messages: [question, { role: 'assistant', content: 'Something else entirely' }, { role: 'user', content: CONTINUE_INSTRUCTION }] }
    expect(planDemoReply(request).text).toBe(planDemoReply({ messages: [question] }).text)
  })

  it('reads the instruction as a continuation only right after an assistant message', () => {
    expect(isContinueRequest([{ role: 'user', content: CONTINUE_INSTRUCTION }])).toBe(false)
    expect(isContinueRequest([question, { role: 'user', content: CONTINUE_INSTRUCTION }])).toBe(false)
    expect(isContinueRequest([question, { role: 'assistant', content: 'x' }, { role: 'user', content: 'Continue' }])).toBe(false)
    expect(isContinueRequest([question, { role: 'assistant', content: 'x' }, { role: 'user', content: CONTINUE_INSTRUCTION }])).toBe(true)
  })
})
