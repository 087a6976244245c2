import { describe, expect, it } from 'vitest'
import type { UserToolRecord } from '~/db/types'
import { readParametersSchema, toToolDefinition, validateUserToolDraft } from '~/utils/chat/user-tools/user-tool-draft'
import type { UserToolDraft } from '~/utils/chat/user-tools/user-tool-draft'
import { USER_TOOLS_MAX_COUNT, USER_TOOLS_MAX_IMPORT_BYTES } from '~/utils/chat/user-tools/user-tool-limits'
import { exportUserTools, parseUserToolsFile, UserToolsImportError } from '~/utils/chat/user-tools/user-tools-file'

const addParameters = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] }
const add = { name: 'add_numbers', description: 'Adds two numbers.', parameters: addParameters, code: 'return args.a + args.b' }

function record(fields: Partial<UserToolRecord> & Pick<UserToolRecord, 'name'>): UserToolRecord {
  return { id: fields.name, description: 'd', parameters: '{"type":"object","properties":{}}', code: 'return 1', createdAt: 1, updatedAt: 1, ...fields }
}

function problemsOf(text: string, options = {}): string[] {
  try {
    parseUserToolsFile(text, options)
  }
  catch (error) {
    expect(error).toBeInstanceOf(UserToolsImportError)
    return (error as UserToolsImportError).problems
  }
  throw new Error('expected the file to be refused')
}

const file = (tools: unknown[]) => JSON.stringify({ format: 'plugboard.user-tools', version: 1, tools })

describe('exporting and importing the user\'s tools', () => {
  it('reads back what it exported', () => {
    const records = [
      record({ name: 'shout', description: 'Upper-cases text.', parameters: '{"type":"object","properties":{"text":{"type":"string"}}}', code: 'return args.text.toUpperCase()', timeoutMs: 2000 }),
      record({ name: 'add_numbers', description: add.description, parameters: JSON.stringify(addParameters), code: add.code }),
    ]
    const text = exportUserTools(records)
    expect(JSON.parse(text)).toMatchObject({ format: 'plugboard.user-tools', version: 1, tools: [{ name: 'add_numbers', parameters: addParameters }, { name: 'shout', timeoutMs: 2000 }] })
    const drafts = parseUserToolsFile(text)
    expect(drafts.map(draft => [draft.name, draft.code, draft.timeoutMs])).toEqual([['add_numbers', add.code, undefined], ['shout', 'return args.text.toUpperCase()', 2000]])
    expect(JSON.parse(drafts[0]!.parameters)).toEqual(addParameters)
  })

  it('accepts one tool object or a bare list of tools, and a schema written as JSON text', () => {
    expect(parseUserToolsFile(JSON.stringify(add))).toHaveLength(1)
    expect(parseUserToolsFile(JSON.stringify([add, { ...add, name: 'add_again', parameters: JSON.stringify(addParameters) }]))).toHaveLength(2)
  })

  it('refuses a file that is not JSON, too large, empty or holding too many tools, before looking at any tool', () => {
    expect(problemsOf('{"tools": [')[0]).toMatch(/^The file is not JSON: /)
    expect(problemsOf(' '.repeat(USER_TOOLS_MAX_IMPORT_BYTES + 1))[0]).toMatch(/tool files of at most 1\.0 MB are accepted/)
    // multi-byte characters count as bytes, not characters
    expect(problemsOf(JSON.stringify({ ...add, description: 'é'.repeat(USER_TOOLS_MAX_IMPORT_BYTES / 2) }))[0]).toMatch(/at most 1\.0 MB/)
    expect(problemsOf(file([]))).toEqual(['The file holds no tools.'])
    expect(problemsOf(file(Array.from({ length: USER_TOOLS_MAX_COUNT + 1 }, (_, index) => ({ ...add, name: `t${index}` })))))
      .toEqual([`The file holds ${USER_TOOLS_MAX_COUNT + 1} tools; at most ${USER_TOOLS_MAX_COUNT} can be imported at once.`])
    expect(problemsOf('"just text"')[0]).toMatch(/must hold a tool, a list of tools/)
    expect(problemsOf(`${'['.repeat(400_000)}${']'.repeat(400_000)}`)).toEqual(['The file is nested too deeply to be a tool file.'])
    const deepSchema = `{"type":"object","properties":{"a":${'{"items":'.repeat(100)}{}${'}'.repeat(100)}}}`
    expect(problemsOf(`{"name":"deep","description":"d","code":"return 1","parameters":${deepSchema}}`)[0]).toMatch(/nested more than 64 levels deep/)
  })

  it('refuses another format, a newer version and unknown fields, which would otherwise be lost', () => {
    expect(problemsOf(JSON.stringify({ format: 'something-else', version: 2, tools: [add], extra: 1 }))).toEqual([
      'unknown field "extra" at the top level',
      '"format" must be "plugboard.user-tools" (got "something-else")',
      '"version" 2 is not supported (this app reads version 1)',
    ])
    expect(problemsOf(file([{ ...add, handler: 'x', permissions: ['network'] }]))).toEqual(['tools[0]: unknown fields "handler", "permissions"'])
  })

  it('checks every tool by the editor\'s rules and lists every problem with its place', () => {
    const problems = problemsOf(file([
      add,
      { ...add, name: 'bad name!' },
      { ...add, name: 'no_schema_type', parameters: { type: 'array' } },
      { ...add, name: 'nested_bad', parameters: { type: 'object', properties: { a: { type: 'num' } } } },
      { ...add, name: 'no_code', code: '   ' },
      { ...add, name: 'slow', timeoutMs: 10 * 60_000 },
      { ...add, name: 'typed_wrong', code: 42, description: null },
      'not a tool',
    ]))
    expect(problemsOf(file([add, add]))).toEqual(['tools[1].name ("add_numbers"): A tool named "add_numbers" already exists. Pick another name.'])
    expect(problems).toEqual([
      'tools[1].name ("bad name!"): Use 1 to 64 letters, digits, "_" or "-" (for example convert_units).',
      'tools[2].parameters ("no_schema_type"): Not a usable JSON Schema: parameters must be a JSON Schema object (got type "array").',
      'tools[3].parameters ("nested_bad"): Not a usable JSON Schema: parameters.properties.a.type must be one of string, number, integer, boolean, object, array, null (got "num").',
      'tools[4].code ("no_code"): Write the handler, for example: return args.a + args.b',
      'tools[5].timeoutMs ("slow"): Use a whole number of milliseconds from 100 to 60000.',
      'tools[6].description: must be a string (got null)',
      'tools[6].code: must be a string (got number)',
      'tools[7]: must be an object with name, description, parameters and code (got string)',
    ])
  })

  it('cannot take the name of a tool that is not the user\'s', () => {
    expect(problemsOf(file([{ ...add, name: 'calculate' }]), { isNameTaken: (name: string) => name === 'calculate' }))
      .toEqual(['tools[0].name ("calculate"): A tool named "calculate" already exists. Pick another name.'])
  })

  it('drops __proto__ keys instead of letting them reach a prototype', () => {
    const text = `{"format":"plugboard.user-tools","version":1,"tools":[{"name":"p","description":"d","code":"return 1","parameters":{"type":"object","properties":{}},"__proto__":{"polluted":true}}]}`
    expect(parseUserToolsFile(text)).toHaveLength(1)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('makes an error message that lists the first problems and counts the rest', () => {
    const tools = Array.from({ length: 12 }, (_, index) => ({ ...add, name: `bad name ${index}` }))
    const error = (() => {
      try {
        parseUserToolsFile(file(tools))
      }
      catch (caught) {
        return caught as UserToolsImportError
      }
    })()!
    expect(error.problems).toHaveLength(12)
    expect(error.message.split('\n')).toHaveLength(12)
    expect(error.message).toMatch(/…and 2 more$/)
  })
})

describe('checking the editor\'s draft', () => {
  const draft: UserToolDraft = { name: 'add_numbers', description: 'Adds.', parameters: JSON.stringify(addParameters), code: 'return args.a + args.b' }

  it('accepts a complete draft and makes a definition that asks before running, sandboxed, acting only in the app', () => {
    expect(validateUserToolDraft(draft)).toEqual({})
    expect(toToolDefinition(draft)).toMatchObject({
      function: { name: 'add_numbers', description: 'Adds.', parameters: addParameters },
      sandbox: 'worker',
      approval: 'ask',
      actsOutsideApp: false,
      timeoutMs: 6000,
    })
  })

  it('says where a schema\'s JSON breaks, by line and column', () => {
    const result = readParametersSchema('{\n  "type": "object",\n  "properties": {,}\n}')
    expect('error' in result && result.error).toMatch(/^Not valid JSON: .*line 3, column 18/)
  })

  it('names a taken name, an empty description and an empty schema', () => {
    expect(validateUserToolDraft({ ...draft, description: ' ', parameters: '' }, { isNameTaken: () => true })).toEqual({
      name: 'A tool named "add_numbers" already exists. Pick another name.',
      description: 'Say what the tool does: the model reads this to decide when to call it.',
      parameters: expect.stringMatching(/^Write the JSON Schema of the arguments/),
    })
  })
})
