import { describe, expect, it } from 'vitest'
import type { DemoRequest, DemoTool } from '~~/server/utils/demo-model/demo-request'
import { planDemoReply } from '~~/server/utils/demo-model/demo-plan'
import { DEMO_LABEL } from '~~/server/utils/demo-model/demo-replies'

function tool(name: string, properties: Record<string, unknown>, required: string[]): DemoTool {
  return { type: 'function', function: { name, description: name, parameters: { type: 'object', properties, required } } }
}

const searchDocuments = tool('search_documents', { query: { type: 'string' }, limit: { type: 'integer' } }, ['query'])
const calculate = tool('calculate', { expression: { type: 'string' } }, ['expression'])

const ask = (text: string, tools: DemoTool[]): DemoRequest => ({ messages: [{ role: 'user', content: text }], tools, stream: true })
const callsOf = (request: DemoRequest) => planDemoReply(request).toolCalls.map(call => ({ name: call.name, arguments: JSON.parse(call.arguments) }))

describe('the demo model and attached documents', () => {
  it('searches the documents when the chat offers it and the question is about the document, file or PDF', () => {
    for (const question of ['What does the PDF say about refunds?', 'Summarise the attached file', 'In this document, who pays for parking?']) {
      const calls = callsOf(ask(question, [searchDocuments, calculate]))
      expect(calls).toEqual([{ name: 'search_documents', arguments: { query: question.replace(/\?$/, '') } }])
    }
  })

  it('does not search documents a chat does not offer, nor for a question about something else', () => {
    expect(callsOf(ask('What does the PDF say about refunds?', [calculate]))).toEqual([])
    expect(callsOf(ask('Tell me a joke about cats', [searchDocuments]))).toEqual([])
  })

  it('answers each part of a compound question, the document first', () => {
    expect(callsOf(ask('what does the pdf say about refunds and what is 2+2', [searchDocuments, calculate])).map(call => call.name))
      .toEqual(['search_documents', 'calculate'])
  })

  it('quotes the passages it got back, each with its file and page', () => {
    const result = 'Found 1 passage: policy.pdf, page 2\n\n[1] policy.pdf, page 2\nA refund is paid within 30 days of a cancelled trip.'
    const request: DemoRequest = {
      messages: [
        { role: 'user', content: 'What does the PDF say about refunds?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search_documents', arguments: '{"query":"refunds"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: result },
      ],
      tools: [searchDocuments],
      stream: true,
    }
    const plan = planDemoReply(request)
    expect(plan.scenario).toBe('tool-answer')
    expect(plan.text).toContain('> A refund is paid within 30 days of a cancelled trip.')
    expect(plan.text).toContain('— *policy.pdf, page 2*')
    expect(plan.text).toContain(DEMO_LABEL)
  })

  it('says when the search found nothing to quote', () => {
    const request: DemoRequest = {
      messages: [
        { role: 'user', content: 'What does the PDF say about zeppelins?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search_documents', arguments: '{"query":"zeppelins"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'No passage of the attached documents matches "zeppelins".' },
      ],
      tools: [searchDocuments],
      stream: true,
    }
    expect(planDemoReply(request).text).toContain('found nothing to quote: No passage of the attached documents matches "zeppelins".')
  })
})
