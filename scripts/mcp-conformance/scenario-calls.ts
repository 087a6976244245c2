/**
 * What the conformance clients call once connected, standing in for the model: the first tool with arguments made
 * from its schema (the kit's newer scenarios check that the arguments arrive), or, for the few scenarios that
 * script a conversation, the calls they expect (as the kit's own reference client does).
 */

export interface ListedTool {
  name: string
  inputSchema: { properties?: Record<string, unknown>, required?: string[] }
}

export interface PlannedCall {
  name: string
  arguments: Record<string, unknown>
}

const SAMPLE_BY_TYPE: Record<string, unknown> = { number: 2, integer: 3, string: 'test', boolean: true, array: [], object: {} }

/** Arguments for every required parameter, by its type, as a model filling the form would give. */
export function sampleArguments(schema: ListedTool['inputSchema']): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const name of schema.required ?? []) {
    const property = schema.properties?.[name] as { type?: unknown, default?: unknown } | undefined
    values[name] = property?.default ?? SAMPLE_BY_TYPE[typeof property?.type === 'string' ? property.type : 'string'] ?? 'test'
  }
  return values
}

/** The calls a scenario names in its context (`MCP_CONFORMANCE_CONTEXT.toolCalls`), if it names any. */
function contextCalls(): PlannedCall[] | undefined {
  try {
    const calls = (JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { toolCalls?: unknown }).toolCalls
    return Array.isArray(calls) ? calls.filter((call): call is PlannedCall => typeof call?.name === 'string' && typeof call.arguments === 'object') : undefined
  }
  catch {
    return undefined
  }
}

export function plannedCalls(scenario: string, tools: ListedTool[]): PlannedCall[] {
  const named = contextCalls()
  if (named) return named
  // the server only lists a tool whose schema points elsewhere; listing it without fetching that is the test
  if (scenario === 'json-schema-ref-no-deref') return []
  // a conversation across several tools: each, in the order listed
  if (scenario === 'sep-2322-client-request-state') return tools.map(tool => ({ name: tool.name, arguments: sampleArguments(tool.inputSchema) }))
  // the schema as the client kept it goes back to the server, which compares it with what it sent
  if (scenario === 'json-schema-2020-12-preservation') {
    const focal = tools.find(tool => tool.name === 'json_schema_2020_12_tool')
    return focal ? [{ name: 'json_schema_echo', arguments: { schema: focal.inputSchema } }] : []
  }
  const first = tools[0]
  return first ? [{ name: first.name, arguments: sampleArguments(first.inputSchema) }] : []
}
