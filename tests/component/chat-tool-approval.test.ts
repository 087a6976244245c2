import { afterEach, describe, expect, it } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import ChatToolCard from '~/components/chat/ChatToolCard.vue'
import { getToolRegistry } from '~/utils/chat/registry/tool-registry-singleton'
import { waitForToolApproval } from '~/utils/chat/approvals/tool-approvals'
import { getToolPolicies } from '~/utils/chat/approvals/tool-policies'
import type { ToolApprovalAnswer } from '#shared/loop/tool-approval'

const disposers: Array<() => void> = []
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose()
})

function registerForecast() {
  disposers.push(getToolRegistry().registerTool({
    type: 'function',
    function: {
      name: 'forecast_test',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'Where' },
          days: { type: 'integer', minimum: 1, maximum: 7 },
          units: { type: 'string', enum: ['C', 'F'] },
          hourly: { type: 'boolean' },
        },
        required: ['city'],
      },
    },
    actsOutsideApp: true,
  }, () => 'ok'))
}

async function mountWaiting(callId: string, argumentsText = '{"city":"Paris","days":2,"units":"C"}') {
  registerForecast()
  return mountSuspended(ChatToolCard, {
    props: { threadId: 't-approval', row: { callId, name: 'forecast_test', status: 'awaiting-approval', arguments: argumentsText } },
  })
}

describe('a card waiting for approval', () => {
  it('asks with a labelled form generated from the schema and three buttons', async () => {
    const wrapper = await mountWaiting('a1')
    const form = wrapper.find('[data-testid="tool-approval"]')
    expect(wrapper.find('[data-testid="tool-status"]').text()).toContain('Needs your approval')
    expect(form.attributes('aria-label')).toBe('Approve Forecast test')
    const city = form.find('[data-field="city"] input')
    expect((city.element as HTMLInputElement).value).toBe('Paris')
    expect(form.find(`label[for="${city.attributes('id')}"]`).text()).toContain('city')
    expect(city.attributes('aria-describedby')).toBeTruthy()
    expect(form.find('[data-field="units"] select').exists()).toBe(true)
    expect(form.find('[data-field="hourly"] input[type="checkbox"]').exists()).toBe(true)
    expect(form.findAll('button').map(button => button.text())).toEqual(['Allow once', 'Always allow', 'Deny'])
  })

  it('checks edits live: a value the schema refuses disables Allow and says why, Deny stays', async () => {
    const wrapper = await mountWaiting('a2')
    await wrapper.find('[data-field="days"] input').setValue('12')
    const error = wrapper.find('[data-field="days"] [data-slot="field-error"]')
    expect(error.text()).toMatch(/7/)
    expect(wrapper.find('[data-field="days"] input').attributes('aria-invalid')).toBe('true')
    expect(wrapper.find('[data-testid="approval-allow-once"]').attributes('disabled')).toBeDefined()
    expect(wrapper.find('[data-testid="approval-deny"]').attributes('disabled')).toBeUndefined()
  })

  it('hands the edited arguments to the waiting loop on Allow once', async () => {
    const wrapper = await mountWaiting('a3')
    const answer = waitForToolApproval('a3')
    await wrapper.find('[data-field="city"] input').setValue('Lisbon')
    await wrapper.find('[data-field="hourly"] input').setValue(true)
    // Allow once is the form's submit button (Enter in a field allows too)
    expect(wrapper.find('[data-testid="approval-allow-once"]').attributes('type')).toBe('submit')
    await wrapper.find('[data-testid="tool-approval"]').trigger('submit')
    expect(await answer).toEqual<ToolApprovalAnswer>({ decision: 'allowed-once', arguments: '{"city":"Lisbon","days":2,"units":"C","hourly":true}' })
  })

  it('sets the tool to run without asking on Always allow, and sends no arguments when nothing was edited', async () => {
    const wrapper = await mountWaiting('a4', '{"city":"Paris","days":2,"units":"C","hourly":false}')
    expect(getToolPolicies().policyOf('forecast_test')).toBe('ask')
    const answer = waitForToolApproval('a4')
    await wrapper.find('[data-testid="approval-always-allow"]').trigger('click')
    expect(await answer).toEqual({ decision: 'always-allowed' })
    expect(getToolPolicies().policyOf('forecast_test')).toBe('auto')
  })
})
