// Every request body on the server is read through readBoundedBody, which refuses it at its limit before
// buffering more: h3's readBody / readRawBody / readValidatedBody buffer whatever arrives.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : []
  })
}

describe('server body reading', () => {
  it('never uses an unbounded body reader', () => {
    const offenders = sourceFiles('server').filter(path => /\b(readBody|readRawBody|readValidatedBody|readFormData|readMultipartFormData)\s*\(/.test(readFileSync(path, 'utf8')))
    expect(offenders).toEqual([])
  })
})
