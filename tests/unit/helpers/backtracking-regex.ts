// A small backtracking regular-expression engine that counts its steps: one per instruction executed, which is
// how a backtracking engine like V8's spends its time, so a pattern that backtracks quadratically here does so
// there too. Characters are tested by V8 itself (`^(?:atom)$` with the pattern's flags), so classes, escapes and
// case folding mean exactly what they mean in JavaScript; this file only does the structure. It supports the
// syntax the demo model uses; anything else (back-references, named groups, wider look-behind) throws.

const nativeExec = RegExp.prototype.exec

type CharTest = (text: string, position: number) => number

type Node =
  | { type: 'char', test: CharTest }
  | { type: 'sequence', items: Node[] }
  | { type: 'alternation', options: Node[] }
  | { type: 'group', capture: number | undefined, body: Node }
  | { type: 'repeat', body: Node, min: number, max: number, greedy: boolean }
  | { type: 'assert', kind: 'start' | 'end' | 'boundary' | 'not-boundary' }
  | { type: 'look', behind: boolean, negate: boolean, body: Node }

type Instruction =
  | { op: 'char', test: CharTest }
  | { op: 'split', first: number, second: number }
  | { op: 'jump', to: number }
  | { op: 'save', slot: number }
  | { op: 'assert', kind: 'start' | 'end' | 'boundary' | 'not-boundary' }
  | { op: 'look', behind: boolean, negate: boolean, program: Instruction[], test?: CharTest }
  | { op: 'match' }

/** A pattern compiled for `matchAt`. */
export interface CompiledRegex { program: Instruction[], groups: number, unicode: boolean, isWordAt: CharTest }

/** Counts the steps of every `matchAt` it is given, and stops the match past `budget`. */
export interface StepMeter { steps: number, budget: number }

/** A test of one character, by V8 itself: `^(?:atom)$` on the code point (or code unit) at `position`. */
function charTest(atom: string, flags: string): CharTest {
  const unicode = flags.includes('u')
  const single = new RegExp(`^(?:${atom})$`, flags.replace(/[gy]/g, ''))
  const known = new Map<string, boolean>()
  return (text, position) => {
    if (position >= text.length) return -1
    const code = text.codePointAt(position)!
    const width = unicode && code > 0xFFFF ? 2 : 1
    const char = text.slice(position, position + width)
    let matches = known.get(char)
    if (matches === undefined) {
      matches = nativeExec.call(single, char) !== null
      known.set(char, matches)
    }
    return matches ? width : -1
  }
}

class Parser {
  private position = 0
  groups = 0
  constructor(private readonly source: string, private readonly flags: string) {}

  parse(): Node {
    const node = this.disjunction()
    if (this.position < this.source.length) throw new Error(`unexpected ${this.source[this.position]} in /${this.source}/`)
    return node
  }

  private disjunction(): Node {
    const options = [this.alternative()]
    while (this.source[this.position] === '|') {
      this.position++
      options.push(this.alternative())
    }
    return options.length === 1 ? options[0]! : { type: 'alternation', options }
  }

  private alternative(): Node {
    const items: Node[] = []
    while (this.position < this.source.length && this.source[this.position] !== '|' && this.source[this.position] !== ')') {
      items.push(this.term())
    }
    return { type: 'sequence', items }
  }

  private term(): Node {
    const source = this.source
    const char = source[this.position]!
    if (char === '^' || char === '$') {
      this.position++
      return { type: 'assert', kind: char === '^' ? 'start' : 'end' }
    }
    if (source.startsWith('\\b', this.position) || source.startsWith('\\B', this.position)) {
      this.position += 2
      return { type: 'assert', kind: source[this.position - 1] === 'b' ? 'boundary' : 'not-boundary' }
    }
    const look = /^\(\?(<?)([=!])/.exec(source.slice(this.position, this.position + 4))
    if (look) {
      this.position += look[0].length
      const body = this.disjunction()
      this.expect(')')
      return { type: 'look', behind: look[1] === '<', negate: look[2] === '!', body }
    }
    return this.quantified(this.atom())
  }

  private atom(): Node {
    const source = this.source
    const start = this.position
    const char = source[start]!
    if (char === '(') {
      let capture: number | undefined
      if (source.startsWith('(?:', start)) this.position += 3
      else if (source.startsWith('(?<', start)) throw new Error(`named groups are not supported: /${source}/`)
      else {
        this.position++
        capture = ++this.groups
      }
      const body = this.disjunction()
      this.expect(')')
      return { type: 'group', capture, body }
    }
    if (char === '[') {
      let end = start + 1
      if (source[end] === '^') end++
      if (source[end] === ']') end++
      while (end < source.length && source[end] !== ']') end += source[end] === '\\' ? 2 : 1
      this.position = end + 1
      return { type: 'char', test: charTest(source.slice(start, end + 1), this.flags) }
    }
    if (char === '\\') {
      const escape = /^\\(?:[pP]\{[^}]+\}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[a-zA-Z]|[1-9]\d*|[\s\S])/.exec(source.slice(start))![0]
      if (/^\\[1-9]/.test(escape)) throw new Error(`back-references are not supported: /${source}/`)
      this.position += escape.length
      return { type: 'char', test: charTest(escape, this.flags) }
    }
    if ('*+?{'.includes(char) && !(char === '{' && !/^\{\d+(?:,\d*)?\}/.test(source.slice(start)))) {
      throw new Error(`nothing to repeat at ${start} in /${source}/`)
    }
    // A code point, so that an astral character under the `u` flag stays one atom.
    const literal = String.fromCodePoint(source.codePointAt(start)!)
    this.position += literal.length
    return { type: 'char', test: charTest(literal.replace(/[{}]/g, '\\$&'), this.flags) }
  }

  private quantified(body: Node): Node {
    const match = /^(?:\*|\+|\?|\{(\d+)(?:(,)(\d*))?\})(\??)/.exec(this.source.slice(this.position))
    if (!match) return body
    this.position += match[0].length
    const symbol = match[0][0]
    const min = symbol === '+' ? 1 : symbol === '{' ? Number(match[1]) : 0
    const max = symbol === '?' ? 1 : symbol === '{' ? (match[2] ? (match[3] ? Number(match[3]) : Infinity) : min) : Infinity
    if (max === Infinity && nullable(body)) throw new Error(`a loop over something that can be empty is not supported: /${this.source}/`)
    return { type: 'repeat', body, min, max, greedy: match[4] !== '?' }
  }

  private expect(char: string) {
    if (this.source[this.position] !== char) throw new Error(`expected ${char} at ${this.position} in /${this.source}/`)
    this.position++
  }
}

function nullable(node: Node): boolean {
  switch (node.type) {
    case 'char': return false
    case 'sequence': return node.items.every(nullable)
    case 'alternation': return node.options.some(nullable)
    case 'group': return nullable(node.body)
    case 'repeat': return node.min === 0 || nullable(node.body)
    default: return true
  }
}

function emit(node: Node, program: Instruction[]): void {
  switch (node.type) {
    case 'char':
      program.push({ op: 'char', test: node.test })
      return
    case 'sequence':
      for (const item of node.items) emit(item, program)
      return
    case 'alternation': {
      const jumps: { op: 'jump', to: number }[] = []
      node.options.forEach((option, index) => {
        if (index === node.options.length - 1) return emit(option, program)
        const split = { op: 'split' as const, first: program.length + 1, second: -1 }
        program.push(split)
        emit(option, program)
        const jump = { op: 'jump' as const, to: -1 }
        jumps.push(jump)
        program.push(jump)
        split.second = program.length
      })
      for (const jump of jumps) jump.to = program.length
      return
    }
    case 'group':
      if (node.capture !== undefined) program.push({ op: 'save', slot: node.capture * 2 })
      emit(node.body, program)
      if (node.capture !== undefined) program.push({ op: 'save', slot: node.capture * 2 + 1 })
      return
    case 'repeat': {
      for (let index = 0; index < node.min; index++) emit(node.body, program)
      if (node.max === Infinity) {
        const loop = program.length
        const split = { op: 'split' as const, first: -1, second: -1 }
        program.push(split)
        const body = program.length
        emit(node.body, program)
        program.push({ op: 'jump', to: loop })
        const after = program.length
        Object.assign(split, node.greedy ? { first: body, second: after } : { first: after, second: body })
        return
      }
      const splits: { op: 'split', first: number, second: number }[] = []
      for (let index = node.min; index < node.max; index++) {
        const split = { op: 'split' as const, first: -1, second: -1 }
        splits.push(split)
        program.push(split)
        split.first = program.length
        emit(node.body, program)
      }
      const after = program.length
      for (const split of splits) {
        if (node.greedy) split.second = after
        else Object.assign(split, { second: split.first, first: after })
      }
      return
    }
    case 'assert':
      program.push({ op: 'assert', kind: node.kind })
      return
    case 'look': {
      if (node.behind) {
        // Look-behind is supported for one character, which is all the demo model uses (`(?<!\s)`).
        const single = node.body.type === 'sequence' && node.body.items.length === 1 ? node.body.items[0]! : node.body
        if (single.type !== 'char') throw new Error('only one-character look-behind is supported')
        program.push({ op: 'look', behind: true, negate: node.negate, program: [], test: single.test })
        return
      }
      const sub: Instruction[] = []
      emit(node.body, sub)
      sub.push({ op: 'match' })
      program.push({ op: 'look', behind: false, negate: node.negate, program: sub })
    }
  }
}

const compiled = new Map<string, CompiledRegex>()

/** Compiles a pattern (cached); throws for syntax or flags the interpreter does not support. */
export function compileRegex(source: string, flags: string): CompiledRegex {
  const key = `${flags}/${source}`
  let result = compiled.get(key)
  if (!result) {
    const unsupported = flags.replace(/[giuy]/g, '')
    if (unsupported) throw new Error(`flags ${unsupported} are not supported: /${source}/${flags}`)
    const parser = new Parser(source, flags)
    const program: Instruction[] = []
    emit(parser.parse(), program)
    program.push({ op: 'match' })
    result = { program, groups: parser.groups, unicode: flags.includes('u'), isWordAt: charTest('\\w', flags) }
    compiled.set(key, result)
  }
  return result
}

/** The character that ends at `position` passes `test`; under the `u` flag a surrogate pair is one character. */
function charBefore(text: string, position: number, test: CharTest, unicode: boolean): boolean {
  if (position === 0) return false
  const isPair = unicode && position >= 2 && text.charCodeAt(position - 1) >= 0xDC00 && text.charCodeAt(position - 1) <= 0xDFFF
    && text.charCodeAt(position - 2) >= 0xD800 && text.charCodeAt(position - 2) <= 0xDBFF
  return isPair ? test(text, position - 2) === 2 : test(text, position - 1) === 1
}

function run(compiledPattern: CompiledRegex, program: Instruction[], text: string, start: number, meter: StepMeter): number[] | undefined {
  const stack: [number, number, number[]][] = []
  let pc = 0
  let position = start
  let slots: number[] = Array.from({ length: (compiledPattern.groups + 1) * 2 }, () => -1)
  slots[0] = start
  for (;;) {
    // A regression to super-linear work must fail the test, not hang it: synchronous code outlives test timeouts.
    if (++meter.steps > meter.budget) throw new Error(`more than ${meter.budget} steps of work: something is super-linear`)
    const instruction = program[pc]!
    let ok = true
    switch (instruction.op) {
      case 'char': {
        const width = instruction.test(text, position)
        if (width < 0) ok = false
        else {
          position += width
          pc++
        }
        break
      }
      case 'split':
        stack.push([instruction.second, position, slots.slice()])
        pc = instruction.first
        break
      case 'jump':
        pc = instruction.to
        break
      case 'save':
        slots[instruction.slot] = position
        pc++
        break
      case 'assert': {
        const before = position > 0 && compiledPattern.isWordAt(text, position - 1) > 0
        const after = compiledPattern.isWordAt(text, position) > 0
        ok = instruction.kind === 'start'
          ? position === 0
          : instruction.kind === 'end' ? position === text.length : (before !== after) === (instruction.kind === 'boundary')
        pc++
        break
      }
      case 'look': {
        const found = instruction.behind
          ? charBefore(text, position, instruction.test!, compiledPattern.unicode)
          : run(compiledPattern, instruction.program, text, position, meter) !== undefined
        ok = found !== instruction.negate
        pc++
        break
      }
      case 'match':
        slots[1] = position
        return slots
    }
    if (ok) continue
    const resume = stack.pop()
    if (!resume) return undefined
    ;[pc, position, slots] = resume
  }
}

/**
 * Matches `pattern` anchored at `start`, one step counted on `meter` per instruction: the capture slots
 * (start and end of the match, then of each group, -1 when unset) of the first match in backtracking order.
 */
export function matchAt(pattern: CompiledRegex, text: string, start: number, meter: StepMeter): number[] | undefined {
  return run(pattern, pattern.program, text, start, meter)
}
