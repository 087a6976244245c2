import { customRef, shallowRef } from 'vue'
import type { Ref, ShallowRef } from 'vue'
import type { ToolHandler } from '#shared/tools/tool-types'
import type { ToolApprovalPolicy } from '#shared/types/server-tools'
import type { ToolCatalogMetadata } from '#shared/types/rich-tool-definition'
import type { NormalizedToolDefinition } from '#shared/tools/definition/tool-definition-validation'
import type { RegisteredTool, RegisteredToolDefinition, ToolAvailability, ToolSandbox } from './tool-registry-types'

/**
 * A registered tool. Its refs are made on first use, so registering costs one object and the definition. The
 * instance is frozen, which Vue's `reactive` leaves alone (it never proxies a non-extensible object), so `enabled`
 * stays a ref wherever the tool is kept.
 */
export class RegisteredToolRecord implements RegisteredTool {
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
  #enabledValue: boolean
  #enabled?: Ref<boolean>
  #triggerEnabled?: () => void
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
    this.#enabledValue = initialEnabled
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

  /** A ref whose writes are saved like the popover's switch. */
  get enabled(): Ref<boolean> {
    return (this.#enabled ??= customRef<boolean>((track, trigger) => {
      this.#triggerEnabled = trigger
      return {
        get: () => {
          track()
          return this.#enabledValue
        },
        set: (next) => {
          if (typeof next !== 'boolean') throw new TypeError(`Tool "${this.name}": enabled must be true or false (got ${typeof next})`)
          this.applyEnabled(next)
          // saved even when unchanged: an `enabled` option may differ from the saved choice it overrode
          this.onChoice(this.name, next)
        },
      }
    }))
  }

  get lastError(): Ref<string | null> {
    return (this.#lastError ??= shallowRef(null))
  }

  get notOfferedBecause(): string | null {
    return (this.#notOfferedBecause ??= shallowRef(null)).value
  }

  /** @internal set `enabled` without saving. */
  applyEnabled(next: boolean) {
    if (this.#enabledValue === next) return
    this.#enabledValue = next
    this.#triggerEnabled?.()
  }

  /** @internal set by the registry after each request's availability checks. */
  setNotOfferedBecause(reason: string | null) {
    (this.#notOfferedBecause ??= shallowRef(null)).value = reason
  }
}
