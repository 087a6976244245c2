import { defineTool } from '~/utils/chat/plugin-api'

/** Longer input is not arithmetic a person asked for; it bounds the work a model can ask for. */
const MAX_EXPRESSION_LENGTH = 500

type Evaluate = (expression: string) => unknown
type Format = (value: unknown, options: { precision: number }) => string

let calculator: Promise<{ evaluate: Evaluate, format: Format }> | undefined

/**
 * mathjs (187 KB gz) is loaded on first use, then restricted as its security guide says: functions that
 * can reach the parser or change the instance are replaced by ones that throw.
 * https://mathjs.org/docs/expressions/security.html
 */
function loadCalculator() {
  return (calculator ??= import('mathjs').then(({ create, all }) => {
    // `all` is typed optional but always present in the full bundle
    const math = create(all!)
    const evaluate = math.evaluate.bind(math) as Evaluate
    const format = math.format.bind(math) as Format
    const disabled = (name: string) => () => {
      throw new Error(`Function ${name} is disabled`)
    }
    math.import({
      import: disabled('import'),
      createUnit: disabled('createUnit'),
      reviver: disabled('reviver'),
      evaluate: disabled('evaluate'),
      parse: disabled('parse'),
      simplify: disabled('simplify'),
      derivative: disabled('derivative'),
      resolve: disabled('resolve'),
    }, { override: true })
    return { evaluate, format }
  }).catch((error: unknown) => {
    calculator = undefined
    throw error
  }))
}

export default defineTool({
  name: 'calculate',
  description: 'Evaluate a math expression exactly, e.g. "2^10 / 3", "sqrt(2) * pi", "15% of 80" written as "0.15 * 80", '
    + 'or convert units with "to", e.g. "5 km to mi", "100 degF to degC". Returns the result as text.',
  parameters: {
    type: 'object',
    properties: {
      expression: { type: 'string', description: 'A mathjs expression, e.g. "12 * (3 + 4)" or "5 km to mi".' },
    },
    required: ['expression'],
    additionalProperties: false,
  } as const,
  icon: 'i-lucide-calculator',
  category: 'Utilities',
  ui: { label: 'Calculator', descriptionHint: 'Arithmetic and unit conversion, offline.' },
  // The limit covers the first call's load of mathjs in a fresh worker, which takes seconds on a slow phone or a
  // busy machine; work that runs longer is stopped all the same, and only the worker waits for it.
  timeoutMs: 15_000,
  catalog: { commandName: 'calc', version: '1.0.0', platformHints: { primaryInput: 'text' } },
  // A model can ask for work that blocks for seconds (`ones(1200,1200)*ones(1200,1200)`): in a worker it
  // cannot freeze the page, and the timeout really stops it.
  sandbox: 'worker',
  async handler({ expression }) {
    const text = expression.trim()
    if (!text) throw new Error('The expression is empty.')
    if (text.length > MAX_EXPRESSION_LENGTH) throw new Error(`The expression is longer than ${MAX_EXPRESSION_LENGTH} characters.`)
    const { evaluate, format } = await loadCalculator()
    let result: unknown
    try {
      result = evaluate(text)
    }
    catch (error) {
      throw new Error(`Cannot evaluate "${text}": ${(error as Error).message}`)
    }
    if (result === undefined || typeof result === 'function') throw new Error(`"${text}" does not produce a value.`)
    return format(result, { precision: 14 })
  },
})
