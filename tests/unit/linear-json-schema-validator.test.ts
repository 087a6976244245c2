// The MCP SDK checks a tool's structuredContent against the server's outputSchema with our provider: a hostile
// server's pattern cannot hold the tab, or the server's thread for an operator's server.
import { describe, expect, it } from 'vitest'
import { LinearJsonSchemaValidator } from '#shared/mcp/linear-json-schema-validator'

const outputSchema = (pattern: string) => ({ type: 'object' as const, properties: { id: { type: 'string' as const, pattern } } })

describe('MCP output schemas', () => {
  it('checks a backtracking pattern in linear time, with the verdict', () => {
    const check = new LinearJsonSchemaValidator().getValidator(outputSchema('^((a+)+|hi-mcp)$'))
    expect(check({ id: 'hi-mcp' })).toEqual({ valid: true, data: { id: 'hi-mcp' }, errorMessage: undefined })
    expect(check({ id: `${'a'.repeat(100_000)}!` })).toMatchObject({ valid: false, errorMessage: expect.stringContaining('/id') })
  })

  it('reports a pattern that needs backtracking as a failed check instead of throwing', () => {
    const check = new LinearJsonSchemaValidator().getValidator(outputSchema('^(?!x)'))
    expect(check({ id: 'y' })).toEqual({ valid: false, data: undefined, errorMessage: 'the output schema cannot be checked: pattern "^(?!x)" is refused: lookahead (?= or (?! needs a backtracking engine; patterns run in linear time' })
  })
})
