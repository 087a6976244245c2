import * as z from 'zod/mini'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import { isApprovalPolicy } from '#shared/loop/tool-approval'
import { tryParseJson } from '#shared/security/parse-json'
import { getToolRegistry, isServerEnvironment } from '../registry/tool-registry-singleton'
import type { ToolRegistry } from '../registry/tool-registry-types'
import { persistedSetting } from '../persisted-setting'

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

type ChosenPolicies = Readonly<Record<string, ToolApprovalPolicy>>

/** `{ version: 1, policies }`; a value that is not a policy is dropped alone, the rest are kept. */
const storedPoliciesSchema = z.object({
  version: z.literal(1),
  policies: z.pipe(z.record(z.string(), z.unknown()), z.transform((policies) => {
    // prototype-less, so a tool named 'constructor' reads its own entry and nothing inherited
    const kept: Record<string, ToolApprovalPolicy> = Object.create(null)
    for (const [name, value] of Object.entries(policies)) if (isApprovalPolicy(value)) kept[name] = value
    return kept as ChosenPolicies
  })),
})
type StoredPolicies = z.infer<typeof storedPoliciesSchema>

const noPolicies = (): StoredPolicies => ({ version: 1, policies: Object.create(null) })

/** Reads `{ version: 1, policies }`; anything else, or values that are not policies, are dropped. */
export function parseToolPolicies(text: string | null): Map<string, ToolApprovalPolicy> {
  const parsed = text ? tryParseJson(text) : undefined
  const checked = parsed?.ok ? storedPoliciesSchema.safeParse(parsed.value) : undefined
  return new Map(checked?.success ? Object.entries(checked.data.policies) : [])
}

/**
 * The user's approval policy per tool ('auto' | 'ask' | 'never'), saved in localStorage like the switches and
 * followed across tabs, so a tab never runs a tool the user set to ask in another.
 */
export function createToolPolicies(options: CreateToolPoliciesOptions = {}): ToolPolicies {
  const { storage = null, key = TOOL_POLICIES_STORAGE_KEY } = options
  const saved = persistedSetting(key, { schema: storedPoliciesSchema, defaults: noPolicies, label: 'tool policies', storage })
  const chosen = () => saved.state.value.policies

  const policyOf = (name: string): ToolApprovalPolicy =>
    chosen()[name] ?? (options.registry ?? getToolRegistry()).getTool(name)?.defaultApproval ?? 'auto'

  return {
    policyOf,
    isChosen: name => Object.hasOwn(chosen(), name),
    setPolicy(name, policy) {
      if (!isApprovalPolicy(policy)) return
      saved.update(current => ({ version: 1, policies: Object.assign(Object.create(null), current.policies, { [name]: policy }) }))
    },
    policiesFor: names => Object.fromEntries([...names].map(name => [name, policyOf(name)])),
    dispose: saved.dispose,
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
