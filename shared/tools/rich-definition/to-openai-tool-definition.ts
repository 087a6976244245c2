import type { JsonSchemaObject, ToolDefinition } from '../../types/chat'
import type { InputField, RichToolDefinition } from '../../types/rich-tool-definition'

function propertyFromField(field: InputField): Record<string, unknown> {
  const media = field.type === 'image' || field.type === 'video' || field.type === 'audio' || field.type === 'file'
  return {
    type: media ? 'string' : field.type,
    ...(media && { contentMediaType: field.type === 'file' ? 'application/octet-stream' : `${field.type}/*` }),
    ...(field.description !== undefined && { description: field.description }),
    ...(field.default !== undefined && { default: field.default }),
    ...(field.enum !== undefined && { enum: [...field.enum] }),
  }
}

/** A JSON Schema object built from the input fields (media kinds as strings with their `contentMediaType`). */
export function parametersFromInputSchema(inputSchema: Record<string, InputField>): JsonSchemaObject {
  const fields = Object.values(inputSchema)
  const required = fields.filter(field => field.required).map(field => field.name)
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map(field => [field.name, propertyFromField(field)])),
    ...(required.length > 0 && { required }),
    additionalProperties: false,
  }
}

/**
 * The OpenAI function definition the model is offered for a rich definition: the JSON Schema it came from when it
 * was derived from a registered tool (`metadata.parameters`), else one built from `inputSchema`.
 */
export function toOpenAIToolDefinition(definition: RichToolDefinition): ToolDefinition {
  const kept = definition.metadata?.parameters
  const parameters = kept && typeof kept === 'object' && (kept as { type?: unknown }).type === 'object'
    ? structuredClone(kept) as JsonSchemaObject
    : parametersFromInputSchema(definition.inputSchema)
  return {
    type: 'function',
    function: {
      name: definition.toolId,
      ...(definition.description !== undefined && { description: definition.description }),
      parameters,
      ...(typeof definition.metadata?.strict === 'boolean' && { strict: definition.metadata.strict }),
    },
  }
}
