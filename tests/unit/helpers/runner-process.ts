import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'

/**
 * A helper script (under tests/unit/helpers) run as an app instance in its own process, with what it prints on
 * stdout and stderr collected line by line (whole lines only). The caller kills it (SIGSTOP, SIGKILL) as a test needs.
 */
export function startRunnerProcess(script: string, env: Record<string, string>): { lines: string[], child: ChildProcess } {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(process.cwd(), 'tests/unit/helpers', script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines: string[] = []
  for (const output of [child.stdout!, child.stderr!]) {
    let partial = ''
    output.on('data', (data: Buffer) => {
      const parts = (partial + data.toString()).split('\n')
      partial = parts.pop()!
      lines.push(...parts)
    })
  }
  return { lines, child }
}
