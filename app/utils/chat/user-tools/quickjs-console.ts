/** The `console` a handler in QuickJS gets: it records lines on the host, capped, and can reach nothing else. */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core'
import { USER_TOOL_MAX_LOG_CHARS, USER_TOOL_MAX_LOG_LINES } from './user-tool-limits'

export interface LogBuffer {
  lines: string[]
  dropped: number
  chars: number
}

export function createLogBuffer(): LogBuffer {
  return { lines: [], dropped: 0, chars: 0 }
}

/** `console.log/info/warn/error/debug`: each call is one line, kept until the caps, then only counted. */
export function installConsole(vm: QuickJSContext, logs: LogBuffer): void {
  const console = vm.newObject()
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const fn = vm.newFunction(level, (...args) => {
      if (logs.lines.length >= USER_TOOL_MAX_LOG_LINES || logs.chars >= USER_TOOL_MAX_LOG_CHARS) {
        logs.dropped++
        return
      }
      const room = USER_TOOL_MAX_LOG_CHARS - logs.chars
      let line = args.map(arg => formatLogArgument(vm, arg, room)).join(' ')
      if (line.length > room) line = `${line.slice(0, room)}…`
      if (level !== 'log') line = `[${level}] ${line}`
      logs.lines.push(line)
      logs.chars += line.length
    })
    vm.setProp(console, level, fn)
    fn.dispose()
  }
  vm.setProp(vm.global, 'console', console)
  console.dispose()
}

function formatLogArgument(vm: QuickJSContext, handle: QuickJSHandle, room: number): string {
  const type = vm.typeof(handle)
  if (type === 'string') return vm.getString(handle).slice(0, room + 1)
  if (type === 'function') return '[function]'
  try {
    return stringify(vm.dump(handle)).slice(0, room + 1)
  }
  catch {
    return `[${type}]`
  }
}

/** A dumped value as one line of text. */
export function stringify(value: unknown): string {
  if (typeof value === 'string') return value
  try {
    return JSON.stringify(value) ?? String(value)
  }
  catch {
    return String(value)
  }
}
