import { shallowReactive } from 'vue'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import { isApprovalPolicy } from '#shared/loop/tool-approval'
import { getToolRegistry, isServerEnvironment } from '../registry/tool-registry-singleton'
import type { ToolRegistry } from '../registry/tool-registry-types'

/** The one localStorage key holding the user's approval policies. Bump the suffix on a format change. */
export const TOOL_POLICIES_STORAGE_KEY = 'plugboard:tool-policies:v1'

export interface CreateToolPoliciesOptions {
  /** Where choices are saved. `null` keeps them in memory only. @default null */
  storage?: Storage | null
  /** @default TOOL_POLICIES_STORAGE_KEY */
  key?: string
  /** Where a tool's default policy comes from. @default the app's registry */
  registry?: Pick<ToolRegistry, 'getTool'>
}

export interface ToolPolicies {
  /** The policy in force for a tool: the user's choice, else the tool's default, else 'auto'. Reactive. */
  policyOf: (name: string) => ToolApprovalPolicy
  /** Whether the user chose the policy (rather than the tool's default). */
  isChosen: (name: string) => boolean
  /** Saves the user's choice for a tool (other tabs follow). */
  setPolicy: (name: string, policy: ToolApprovalPolicy) => void
  /** The policies of some tools by name, as a chat run on the server receives them. */
  policiesFor: (names: Iterable<string>) => Record<string, ToolApprovalPolicy>
  dispose: () => void
}

/** Reads `{ version: 1, policies }`; anything else, or values that are not policies, are dropped. */
export function parseToolPolicies(text: string | null): Map<string, ToolApprovalPolicy> {
  const policies = new Map<string, ToolApprovalPolicy>()
  if (!text) return policies
  try {
    const data = JSON.parse(text) as { version?: unknown, policies?: unknown }
    if (data?.version !== 1 || typeof data.policies !== 'object' || data.policies === null) return policies
    for (const [name, value] of Object.entries(data.policies)) if (isApprovalPolicy(value)) policies.set(name, value)
  }
  catch {
    console.warn(`[plugboard] ignoring the saved tool policies: not valid JSON`)
  }
  return policies
}

/**
 * The user's approval policy per tool ('auto' | 'ask' | 'never'), saved in localStorage like the switches and
 * followed across tabs through the `storage` event, so a tab never runs a tool the user set to ask in another.
 */
export function createToolPolicies(options: CreateToolPoliciesOptions = {}): ToolPolicies {
  const { storage = null, key = TOOL_POLICIES_STORAGE_KEY } = options
  const chosen = shallowReactive(new Map<string, ToolApprovalPolicy>())
  const read = () => {
    try {
      return parseToolPolicies(storage?.getItem(key) ?? null)
    }
    catch {
      return new Map<string, ToolApprovalPolicy>()
    }
  }
  const replace = (next: Map<string, ToolApprovalPolicy>) => {
    chosen.clear()
    for (const [name, policy] of next) chosen.set(name, policy)
  }
  replace(read())

  const onStorage = (event: StorageEvent) => {
    if (event.key === key && (!event.storageArea || event.storageArea === storage)) replace(parseToolPolicies(event.newValue))
  }
  const target = storage && typeof window !== 'undefined' ? window : undefined
  target?.addEventListener('storage', onStorage)

  const policyOf = (name: string): ToolApprovalPolicy =>
    chosen.get(name) ?? (options.registry ?? getToolRegistry()).getTool(name)?.defaultApproval ?? 'auto'

  return {
    policyOf,
    isChosen: name => chosen.has(name),
    setPolicy(name, policy) {
      if (!isApprovalPolicy(policy)) return
      chosen.set(name, policy)
      if (!storage) return
      // merged into what is saved now, so another tab's choices for other tools are kept
      const merged = read()
      merged.set(name, policy)
      try {
        storage.setItem(key, JSON.stringify({ version: 1, policies: Object.fromEntries(merged) }))
      }
      catch (error) {
        console.warn(`[plugboard] cannot save tool policies (${(error as Error).message})`)
      }
    },
    policiesFor: names => Object.fromEntries([...names].map(name => [name, policyOf(name)])),
    dispose: () => target?.removeEventListener('storage', onStorage),
  }
}

const POLICIES_KEY = Symbol.for('plugboard.toolPolicies')
type GlobalWithPolicies = typeof globalThis & { [POLICIES_KEY]?: ToolPolicies }

/** The app's policies (client only; on the server an in-memory set that saves nothing). */
export function getToolPolicies(): ToolPolicies {
  if (isServerEnvironment()) return createToolPolicies()
  const holder = globalThis as GlobalWithPolicies
  return (holder[POLICIES_KEY] ??= createToolPolicies({ storage: safeLocalStorage() }))
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage
  }
  catch {
    return null
  }
}
