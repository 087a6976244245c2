import { shallowRef } from 'vue'
import type { Ref, ShallowRef } from 'vue'
import type { ToolHandler } from '#shared/tools/tool-types'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import type { ToolCatalogMetadata } from '#shared/types/rich-tool-definition'
import type { NormalizedToolDefinition } from '#shared/tools/definition/tool-definition-validation'
import type { RegisteredTool, RegisteredToolDefinition, ToolAvailability, ToolSandbox } from './tool-registry-types'

/**
 * `tool.enabled`: a ref whose writes are saved like the popover's switch. A class rather than `customRef` or a
 * `watch` per tool: 10,000 tools must register in a few milliseconds. `__v_isRef` makes `isRef`, `unref` and
 * templates treat it as a ref (Vue's own marker; the `Ref` type's brand symbol is type-only).
 */
class ToolEnabledRef {
  readonly __v_isRef = true
  readonly #state: ShallowRef<boolean>
  readonly #tool: RegisteredToolRecord

  constructor(initial: boolean, tool: RegisteredToolRecord) {
    this.#state = shallowRef(initial)
    this.#tool = tool
  }

  get value(): boolean {
    return this.#state.value
  }

  set value(next: boolean) {
    if (typeof next !== 'boolean') throw new TypeError(`Tool "${this.#tool.name}": enabled must be true or false (got ${typeof next})`)
    this.#state.value = next
    // saved even when unchanged: an `enabled` option may differ from the saved choice it overrode
    this.#tool.onChoice(this.#tool.name, next)
  }

  /** Set without saving (saved states applied from storage or another tab). */
  apply(next: boolean) {
    this.#state.value = next
  }
}

/**
 * A registered tool. Its refs are made on first use, so registering costs one object and the definition; the
 * instance is frozen and marked raw (`__v_skip`), so Vue never proxies it and `enabled` stays a ref.
 */
export class RegisteredToolRecord implements RegisteredTool {
  readonly __v_skip = true
  readonly name: string
  readonly definition: RegisteredToolDefinition
  readonly handler: ToolHandler
  readonly description: string
  readonly timeoutMs?: number
  readonly available?: ToolAvailability
  readonly unavailableReason?: string
  readonly sandbox?: ToolSandbox
  readonly defaultApproval: ToolApprovalPolicy
  readonly catalog?: ToolCatalogMetadata
  /** @internal called when the user (or code) sets `enabled`. */
  readonly onChoice: (name: string, enabled: boolean) => void
  #initialEnabled: boolean
  #enabled?: ToolEnabledRef
  #lastError?: ShallowRef<string | null>
  #notOfferedBecause?: ShallowRef<string | null>

  constructor(normalized: NormalizedToolDefinition, handler: ToolHandler, initialEnabled: boolean,
    onChoice: (name: string, enabled: boolean) => void) {
    this.name = normalized.name
    this.definition = normalized.definition
    this.handler = handler
    this.description = normalized.description
    this.timeoutMs = normalized.timeoutMs
    this.available = normalized.available
    this.unavailableReason = normalized.unavailableReason
    this.sandbox = normalized.sandbox
    this.defaultApproval = normalized.defaultApproval
    this.catalog = normalized.catalog
    this.onChoice = onChoice
    this.#initialEnabled = initialEnabled
    Object.freeze(this)
  }

  get label(): string {
    return this.definition.ui.label
  }

  get icon(): string {
    return this.definition.ui.icon
  }

  get category(): string {
    return this.definition.ui.category
  }

  get enabled(): Ref<boolean> {
    return (this.#enabled ??= new ToolEnabledRef(this.#initialEnabled, this)) as unknown as Ref<boolean>
  }

  get lastError(): Ref<string | null> {
    return (this.#lastError ??= shallowRef(null))
  }

  get notOfferedBecause(): string | null {
    return (this.#notOfferedBecause ??= shallowRef(null)).value
  }

  /** @internal set `enabled` without saving. */
  applyEnabled(next: boolean) {
    if (this.#enabled) this.#enabled.apply(next)
    else this.#initialEnabled = next
  }

  /** @internal set by the registry after each request's availability checks. */
  setNotOfferedBecause(reason: string | null) {
    (this.#notOfferedBecause ??= shallowRef(null)).value = reason
  }
}
