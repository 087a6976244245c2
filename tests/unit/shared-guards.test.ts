import { describe, expect, it } from 'vitest'
import { isRecord } from '#shared/types/is-record'
import { dropForbiddenKeys, isForbiddenKey } from '#shared/security/forbidden-keys'
import { DuplicateToolError } from '#shared/errors/duplicate-tool-error'
import { DuplicateServerToolError } from '~~/server/utils/chat/errors/duplicate-server-tool-error'
import { DuplicateToolError as AppDuplicateToolError } from '~/utils/chat/registry/errors/duplicate-tool-error'
import { TOOL_NAME_PATTERN as appPattern } from '../../shared/tools/definition/tool-definition-validation'
import { TOOL_NAME_PATTERN } from '#shared/history/tool-call-shape'

describe('the one copy of each small guard', () => {
  it('isRecord takes JSON objects only', () => {
    expect([{}, { a: 1 }, Object.create(null)].every(isRecord)).toBe(true)
    expect([null, undefined, [], 'x', 1, true].some(isRecord)).toBe(false)
  })

  it('drops prototype-reaching keys from untrusted JSON at every depth', () => {
    const parsed = JSON.parse('{"a":{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"keep":2},"prototype":3}', dropForbiddenKeys) as Record<string, Record<string, unknown>>
    expect(parsed).toEqual({ a: { keep: 2 } })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(['__proto__', 'constructor', 'prototype'].every(isForbiddenKey)).toBe(true)
    expect(isForbiddenKey('proto')).toBe(false)
  })

  it('the browser and the server refuse a taken tool name with one error class, each saying where', () => {
    expect(AppDuplicateToolError).toBe(DuplicateToolError)
    const server = new DuplicateServerToolError('weather')
    expect(server).toBeInstanceOf(DuplicateToolError)
    expect(server.message).toBe('Tool "weather" is already registered on server. Pick another name, or pass { override: true } to replace it.')
    expect(DuplicateServerToolError.isInstance(server)).toBe(true)
    expect(DuplicateServerToolError.isInstance(new DuplicateToolError('weather'))).toBe(false)
    expect(new DuplicateToolError('weather').message).toBe('Tool "weather" is already registered. Pick another name, or pass { override: true } to replace it.')
  })

  it('one rule for tool names', () => {
    expect(appPattern).toBe(TOOL_NAME_PATTERN)
  })
})
