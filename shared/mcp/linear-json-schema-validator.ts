import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation'
import { describeValue } from '../errors/describe-value'
import { getSchemaValidator } from '../tools/validate-tool-arguments'
import type { ToolSchema } from '../tools/validate-tool-arguments'

/**
 * The MCP SDK's schema checks (a tool's `outputSchema` against its `structuredContent`) through our validator
 * instead of the SDK's CfWorkerJsonSchemaValidator: same cfworker, but the server's patterns run in linear time,
 * so a server cannot hold the tab, or this server's thread for an operator's server, with a backtracking pattern.
 * Stops at the first problem, as the SDK's provider does by default.
 */
export class LinearJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const validator = getSchemaValidator(schema as ToolSchema, '2020-12', true)
    return (input) => {
      let errorMessage: string
      try {
        const result = validator.validate(input)
        if (result.valid) return { valid: true, data: input as T, errorMessage: undefined }
        errorMessage = result.errors.map(error => `${error.instanceLocation}: ${error.error}`).join('; ')
      }
      catch (error) {
        errorMessage = `the output schema cannot be checked: ${describeValue(error, 200).split('\n')[0]}`
      }
      return { valid: false, data: undefined, errorMessage }
    }
  }
}
