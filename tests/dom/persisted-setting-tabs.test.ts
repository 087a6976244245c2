import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createToolPolicies, TOOL_POLICIES_STORAGE_KEY } from '~/utils/chat/approvals/tool-policies'
import { persistedSettingNotices } from '~/utils/chat/persisted-setting'

const registry = { getTool: () => undefined }

/** What the browser does in every other tab after a write: jsdom does not cross tabs, so we dispatch it. */
function writeFromAnotherTab(text: string) {
  const oldValue = localStorage.getItem(TOOL_POLICIES_STORAGE_KEY)
  localStorage.setItem(TOOL_POLICIES_STORAGE_KEY, text)
  window.dispatchEvent(new StorageEvent('storage', { key: TOOL_POLICIES_STORAGE_KEY, oldValue, newValue: text, storageArea: localStorage }))
}

beforeEach(() => localStorage.clear())
afterEach(() => {
  persistedSettingNotices.value = []
  vi.restoreAllMocks()
})

describe('persisted settings across tabs', () => {
  it('a policy chosen in another tab applies here at once', () => {
    const policies = createToolPolicies({ storage: localStorage, registry })
    writeFromAnotherTab('{"version":1,"policies":{"calculate":"never"}}')
    expect(policies.policyOf('calculate')).toBe('never')
    policies.dispose()
  })

  it('a corrupt value written by another tab resets to the default with a notice', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const policies = createToolPolicies({ storage: localStorage, registry })
    policies.setPolicy('calculate', 'never')
    writeFromAnotherTab('{"version":1,"policies":')
    expect(policies.policyOf('calculate')).toBe('auto')
    expect(persistedSettingNotices.value).toEqual([expect.stringContaining('Your saved tool policies could not be read (not valid JSON)')])
    policies.dispose()
  })

  it('stops following other tabs after dispose', () => {
    const policies = createToolPolicies({ storage: localStorage, registry })
    policies.dispose()
    writeFromAnotherTab('{"version":1,"policies":{"calculate":"never"}}')
    expect(policies.policyOf('calculate')).toBe('auto')
  })
})
