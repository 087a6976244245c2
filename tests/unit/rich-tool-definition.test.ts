import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { ToolDefinition } from '#shared/types/chat'
import type { RichToolDefinition } from '#shared/types/rich-tool-definition'
import {
  createToolCatalog, estimateToolCost, formatUsd, toOpenAIToolDefinition, toRichToolDefinition, validateRichDefinitions,
} from '#shared/tools/rich-definition'

const weather: ToolDefinition = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get the weather.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'integer', default: 1 },
        photo: { type: 'string', contentMediaType: 'image/png' },
        detailed: { type: 'boolean' },
      },
      required: ['city'],
      additionalProperties: false,
    },
  },
}

function rich(overrides: Partial<RichToolDefinition> = {}): RichToolDefinition {
  return { toolId: 'tool_a', service: 'browser', displayName: 'Tool A', inputSchema: {}, ...overrides }
}

describe('toRichToolDefinition', () => {
  it('derives inputs, command, cost and settings from the OpenAI definition and the catalog metadata', () => {
    const definition = toRichToolDefinition(weather, {
      label: 'Weather',
      category: 'Web',
      runtime: 'client',
      catalog: {
        commandName: 'Weather',
        costingModel: { rate: 0.002, unit: 'request' },
        settings: { units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' } },
        inputs: { detailed: { advanced: true } },
        version: '2.0.0',
        deprecated: 'Use get_forecast',
      },
    })
    expect(definition).toMatchObject({
      toolId: 'get_weather',
      service: 'browser',
      displayName: 'Weather',
      description: 'Get the weather.',
      commandName: '/weather',
      costingModel: { rate: 0.002, unit: 'request', rateSource: 'static' },
      version: '2.0.0',
      deprecated: 'Use get_forecast',
      metadata: { category: 'Web', runtime: 'client', settings: { units: { default: 'metric' } } },
    })
    expect(definition.inputSchema).toEqual({
      city: { name: 'city', type: 'string', required: true, description: 'City name' },
      days: { name: 'days', type: 'number', required: false, default: 1 },
      photo: { name: 'photo', type: 'image', required: false },
      detailed: { name: 'detailed', type: 'boolean', required: false, advanced: true },
    })
  })

  it('maps back to exactly the OpenAI definition the model is offered', () => {
    expect(toOpenAIToolDefinition(toRichToolDefinition(weather))).toEqual(weather)
  })

  it('builds a JSON Schema from the input fields of a definition written by hand', () => {
    const definition = rich({
      toolId: 'upscale',
      description: 'Upscale an image',
      inputSchema: {
        image: { name: 'image', type: 'image', required: true, description: 'The picture' },
        factor: { name: 'factor', type: 'number', required: false, default: 2 },
      },
    })
    expect(toOpenAIToolDefinition(definition)).toEqual({
      type: 'function',
      function: {
        name: 'upscale',
        description: 'Upscale an image',
        parameters: {
          type: 'object',
          properties: {
            image: { type: 'string', contentMediaType: 'image/*', description: 'The picture' },
            factor: { type: 'number', default: 2 },
          },
          required: ['image'],
          additionalProperties: false,
        },
      },
    })
  })
})

describe('createToolCatalog', () => {
  const catalog = createToolCatalog([
    rich({ toolId: 'calculate', displayName: 'Calculator', commandName: '/calc', metadata: { category: 'Utilities' } }),
    rich({ toolId: 'get_weather', displayName: 'Weather', metadata: { category: 'Web' } }),
    rich({ toolId: 'notes', displayName: 'Notes' }),
  ])

  it('finds tools by id, by command with or without its slash, and by display name', () => {
    expect(catalog.getById('get_weather')?.displayName).toBe('Weather')
    expect(catalog.getById('nope')).toBeUndefined()
    expect(catalog.findByCommand('/calc')?.toolId).toBe('calculate')
    expect(catalog.findByCommand('CALC')?.toolId).toBe('calculate')
    expect(catalog.findByCommand('/weather')).toBeUndefined()
    expect(catalog.findByDisplayName(' calculator ')?.toolId).toBe('calculate')
  })

  it('lists the categories in use, sorted, with General for tools without one', () => {
    expect(catalog.getCategories()).toEqual(['General', 'Utilities', 'Web'])
    expect(catalog.getAll().map(tool => tool.toolId)).toEqual(['calculate', 'get_weather', 'notes'])
  })

  it('follows a list that changes', () => {
    const list: RichToolDefinition[] = []
    const live = createToolCatalog(() => list)
    expect(live.getById('late')).toBeUndefined()
    list.push(rich({ toolId: 'late' }))
    expect(live.getById('late')?.toolId).toBe('late')
  })
})

describe('validate()', () => {
  it('accepts good definitions', () => {
    const result = createToolCatalog([
      toRichToolDefinition(weather, { catalog: { commandName: 'weather', costingModel: { rate: 0, unit: 'second' } } }),
      rich({ commandName: '/a' }),
    ]).validate()
    expect(result).toEqual({ valid: true, problems: [] })
  })

  it('reports duplicate ids and commands, naming both tools', () => {
    const { valid, problems } = validateRichDefinitions([
      rich({ toolId: 'one', commandName: '/go' }),
      rich({ toolId: 'one' }),
      rich({ toolId: 'two', commandName: 'GO' }),
    ])
    expect(valid).toBe(false)
    expect(problems).toContainEqual({ toolId: 'one', path: 'toolId', message: 'is used by definitions #1 and #2' })
    expect(problems).toContainEqual(expect.objectContaining({ toolId: 'two', path: 'commandName', message: '/go is already the command of "one"' }))
  })

  it('reports bad names, bad field types, negative rates and bad settings, each at its path', () => {
    const { problems } = validateRichDefinitions([
      rich({
        toolId: 'bad name!',
        displayName: '',
        commandName: '/Has Space',
        inputSchema: {
          city: { name: 'city', type: 'text' as never, required: true },
          count: { name: 'count', type: 'number', required: 'yes' as never, default: 'three' },
          wrong: { name: 'other', type: 'string', required: false },
        },
        costingModel: { rate: -1, unit: 'minute' as never, rateSource: 'guess' as never },
        platformHints: { primaryInput: 'smell' as never },
        metadata: { settings: { units: { type: 'string', enum: ['metric'], default: 'kelvin' }, size: { type: 'color' as never } } },
      }),
      'not an object',
    ])
    const paths = problems.map(problem => problem.path)
    expect(paths).toEqual(expect.arrayContaining([
      'toolId', 'displayName', 'commandName', 'inputSchema.city.type', 'inputSchema.count.required', 'inputSchema.count.default',
      'inputSchema.wrong.name', 'costingModel.rate', 'costingModel.unit', 'costingModel.rateSource', 'platformHints.primaryInput',
      'metadata.settings.units.default', 'metadata.settings.size.type', '',
    ]))
    expect(problems.find(problem => problem.path === 'costingModel.rate')?.message).toBe('must be a number of USD per unit, 0 or more (got number)')
  })
})

describe('estimateToolCost', () => {
  it('prices a run by seconds of duration, tokens, or one request', () => {
    expect(estimateToolCost({ rate: 0.5, unit: 'second' }, { durationMs: 3000 })).toBe(1.5)
    expect(estimateToolCost({ rate: 0.001, unit: 'token' }, { tokens: 250 })).toBeCloseTo(0.25)
    expect(estimateToolCost({ rate: 0.02, unit: 'request' }, {})).toBe(0.02)
  })

  it('gives no estimate when the unit was not measured or there is no costing model', () => {
    expect(estimateToolCost({ rate: 0.001, unit: 'token' }, { durationMs: 10 })).toBeUndefined()
    expect(estimateToolCost(undefined, { durationMs: 10 })).toBeUndefined()
    expect(estimateToolCost({ rate: -1, unit: 'request' }, {})).toBeUndefined()
  })

  it('formats small amounts so they do not read as zero', () => {
    expect(formatUsd(0.0034)).toBe('$0.0034')
    expect(formatUsd(0.00001)).toBe('<$0.0001')
    expect(formatUsd(0.5)).toBe('$0.50')
    expect(formatUsd(1.5)).toBe('$1.50')
  })
})

describe('on real definitions (the BFCL corpus)', () => {
  const corpus = JSON.parse(readFileSync(new URL('../fixtures/corpora/tool-schemas/bfcl_tools.openai.json', import.meta.url), 'utf8')) as ToolDefinition[]

  it('maps every definition to a rich one and back to exactly what the model was offered', () => {
    expect(corpus.length).toBeGreaterThan(2000)
    for (const definition of corpus) expect(toOpenAIToolDefinition(toRichToolDefinition(definition))).toEqual(definition)
  })

  it('reports only the corpus\'s real mistakes: a default written as text for a boolean, number or list input, and a repeated name', () => {
    const { problems } = validateRichDefinitions(corpus.map(definition => toRichToolDefinition(definition)))
    expect(problems.length).toBeGreaterThan(0)
    for (const problem of problems) {
      if (problem.path === 'toolId') {
        expect(problem.message).toMatch(/^is used by definitions #\d+ and #\d+$/)
        continue
      }
      const [, input] = problem.path.match(/^inputSchema\.(.+)\.default$/) ?? []
      expect(input, `${problem.toolId}: ${problem.path}`).toBeDefined()
      // a name may be used twice in the corpus: the problem is in one of them
      const property = corpus.filter(definition => definition.function.name === problem.toolId)
        .map(definition => definition.function.parameters.properties?.[input!] as { type: string, default: unknown } | undefined)
        .find(candidate => typeof candidate?.default === 'string' && ['boolean', 'number', 'integer', 'array'].includes(candidate.type))
      expect(property, `${problem.toolId}: ${problem.path}`).toBeDefined()
    }
    expect(problems).toContainEqual({ toolId: 'biology_get_cell_info', path: 'inputSchema.detailed.default', message: 'must be a boolean like the field (got "false")' })
  })
})
