import { describe, expect, it } from 'vitest'
import { deleteUserTool, importUserTools, listUserTools, saveUserTool } from '~/db/user-tools'
import { useFreshDatabase } from './helpers/fresh-database'

useFreshDatabase('user-tools-test')

const draft = (name: string, code = 'return 1') => ({ name, description: `The ${name} tool.`, parameters: '{"type":"object","properties":{}}', code })

describe('the user\'s tools in IndexedDB', () => {
  it('keeps a new tool, edits it in place (same id, new name) and deletes it', async () => {
    const created = await saveUserTool({ ...draft('shout'), name: ' shout ', description: ' Shouts. ' })
    expect(created).toMatchObject({ name: 'shout', description: 'Shouts.' })
    const edited = await saveUserTool({ ...draft('yell', 'return 2'), timeoutMs: 2000 }, created.id)
    expect(edited).toMatchObject({ id: created.id, name: 'yell', code: 'return 2', timeoutMs: 2000, createdAt: created.createdAt })
    expect((await listUserTools()).map(tool => tool.name)).toEqual(['yell'])
    await deleteUserTool(created.id)
    expect(await listUserTools()).toEqual([])
  })

  it('refuses a second tool with a name already kept (the unique index)', async () => {
    await saveUserTool(draft('unique_name'))
    await expect(saveUserTool(draft('unique_name'))).rejects.toThrow()
    expect(await listUserTools()).toHaveLength(1)
  })

  it('imports in one go: a name the user has is replaced (same id), the others are added', async () => {
    const kept = await saveUserTool(draft('greet', 'return "hi"'))
    expect(await importUserTools([draft('greet', 'return "bonjour"'), draft('add')])).toEqual({ added: 1, replaced: 1 })
    const tools = await listUserTools()
    expect(tools.map(tool => [tool.name, tool.code])).toEqual([['add', 'return 1'], ['greet', 'return "bonjour"']])
    expect(tools.find(tool => tool.name === 'greet')!.id).toBe(kept.id)
  })
})
