import { Validator } from '@cfworker/json-schema'
import type { ValidationResult } from '@cfworker/json-schema'
import { withLinearPatterns } from './with-linear-patterns'

/**
 * cfworker's Validator (no code generation, so it runs under the page's CSP) whose `validate` checks `pattern`
 * and `patternProperties` in linear time and uses the bounded formats (withLinearPatterns). Throws
 * UnsafePatternError when a pattern of the schema cannot be run that way.
 */
export class LinearPatternValidator extends Validator {
  override validate(instance: unknown): ValidationResult {
    return withLinearPatterns(() => super.validate(instance))
  }
}
