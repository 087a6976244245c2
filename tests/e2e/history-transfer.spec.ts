import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import type { MessageRecord, ThreadRecord } from '../../app/db/types'
import { openApp, openSeededChat } from './helpers'
import type { SeededChat } from './support/seed-chat'
import { seriousViolations } from './support/axe'

const SHOTS = '/tmp/shots-export'
mkdirSync(SHOTS, { recursive: true })
const CHATGPT_SAMPLE = new URL('../fixtures/chatgpt/conversations.json', import.meta.url).pathname

/** "What is 6*7?" answered through `calculate`, then edited to "What is 6*8?" and answered: two branches, the second shown. */
function branchedChat(): SeededChat {
  const threadId = 'export-source'
  const at = 1_764_000_000_000
  const row = (fields: Partial<MessageRecord> & Pick<MessageRecord, 'id' | 'seq' | 'role'>): MessageRecord =>
    ({ threadId, content: '', status: 'complete', createdAt: at + fields.seq, updatedAt: at + fields.seq, ...fields })
  const call = { id: 'call_1', type: 'function' as const, function: { name: 'calculate', arguments: '{"expression":"6*7"}' } }
  const messages = [
    row({ id: 'src-q1', seq: 1, role: 'user', content: 'What is 6*7?' }),
    row({ id: 'src-a1', seq: 2, parentId: 'src-q1', role: 'assistant', toolCalls: [call] }),
    row({ id: 'src-t1', seq: 3, parentId: 'src-a1', role: 'tool', content: '42', toolCallId: 'call_1', toolName: 'calculate', toolArguments: call.function.arguments, toolStatus: 'done', toolResultFull: '42', startedAt: at, finishedAt: at + 4 }),
    row({ id: 'src-a2', seq: 4, parentId: 'src-t1', role: 'assistant', content: '6 × 7 is **42**.' }),
    row({ id: 'src-q2', seq: 5, role: 'user', content: 'What is 6*8?', onPath: 1 }),
    row({ id: 'src-a3', seq: 6, parentId: 'src-q2', role: 'assistant', content: '6 × 8 is **48**.', onPath: 1 }),
  ]
  return { thread: { id: threadId, title: 'Arithmetic with a branch', createdAt: at, updatedAt: at + 6, activeLeafId: 'src-a3' }, messages }
}

/** A chat as stored, with ids named by position: an import equals its source when only the ids differ. */
async function storedShape(page: Page, threadId: string) {
  const { thread, messages } = await page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((done, fail) => {
      const request = indexedDB.open('plugboard')
      request.onsuccess = () => done(request.result)
      request.onerror = () => fail(request.error)
    })
    const read = <T>(request: IDBRequest<T>) => new Promise<T>((done, fail) => {
      request.onsuccess = () => done(request.result)
      request.onerror = () => fail(request.error)
    })
    const transaction = db.transaction(['threads', 'messages'])
    const result = {
      thread: await read(transaction.objectStore('threads').get(id)) as ThreadRecord,
      messages: await read(transaction.objectStore('messages').index('threadId').getAll(id)) as MessageRecord[],
    }
    db.close()
    return result
  }, threadId)
  const rows = messages.sort((a, b) => a.seq - b.seq)
  const name = new Map(rows.map((row, index) => [row.id, `#${index + 1}`]))
  const { id: _id, ...threadFields } = thread
  return {
    thread: { ...threadFields, activeLeafId: name.get(thread.activeLeafId!) },
    messages: rows.map(({ id, threadId: _thread, parentId, ...fields }) => ({ ...fields, id: name.get(id), parentId: parentId && name.get(parentId) })),
  }
}

async function chooseMenuItem(page: Page, name: string) {
  await page.getByTestId('history-menu').click()
  await page.getByRole('menuitem', { name }).click()
}

async function importFile(page: Page, path: string) {
  const chooser = page.waitForEvent('filechooser')
  await chooseMenuItem(page, 'Import chats…')
  await (await chooser).setFiles(path)
}

const userMessages = (page: Page) => page.locator('[data-testid="message"][data-role="user"]')

test.describe('export and import of chats', () => {
  test('a chat with a branch and a tool call, exported as JSON and imported, equals the original and its branches switch', async ({ page }) => {
    // export, import, a Markdown export and two accessibility scans in one go
    test.slow()
    const source = branchedChat()
    await openSeededChat(page, source)

    await page.getByTestId('history-menu').click()
    await expect(page.getByRole('menuitem', { name: 'Export as JSON (all branches)' })).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/menu-desktop-light.png` })
    expect(await seriousViolations(page)).toEqual([])
    const download = page.waitForEvent('download')
    await page.getByRole('menuitem', { name: 'Export as JSON (all branches)' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^arithmetic-with-a-branch-\d{4}-\d{2}-\d{2}\.json$/)
    const path = await file.path()
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ format: 'plugboard.chats', version: 1, chats: [{ thread: { title: 'Arithmetic with a branch' } }] })

    await importFile(page, path)
    await expect(page.getByText('Imported 1 chat, 6 messages.', { exact: true })).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/imported-desktop-light.png` })
    await expect(page).not.toHaveURL(/thread=export-source/)
    const copyId = new URL(page.url()).searchParams.get('thread')!
    expect(await storedShape(page, copyId)).toEqual(await storedShape(page, source.thread.id))
    await expect(page.getByTestId('thread-item')).toHaveCount(2)

    // The imported chat shows the edited question's branch, and the first branch (with its tool run) is one click away.
    const question = userMessages(page).first()
    await expect(question).toContainText('What is 6*8?')
    await expect(question.getByTestId('branch-position')).toHaveText('2/2')
    await question.getByRole('button', { name: 'Previous branch' }).click()
    await expect(userMessages(page).first()).toContainText('What is 6*7?')
    await expect(page.getByTestId('tool-card')).toHaveAttribute('data-tool', 'calculate')
    await expect(page.getByTestId('tool-card')).toContainText('42')
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('6 × 7 is 42.')

    // Markdown: the branch shown, the tool run folded.
    const markdownDownload = page.waitForEvent('download')
    await chooseMenuItem(page, 'Export as Markdown')
    const markdown = readFileSync(await (await markdownDownload).path(), 'utf8')
    expect(markdown).toContain('## You\n\nWhat is 6*7?')
    expect(markdown).toContain('<summary>Tool: calculate</summary>')
    expect(markdown).not.toContain('6*8')

    await page.getByTestId('color-mode').click()
    await expect(page.locator('html')).toHaveClass(/dark/)
    await page.getByTestId('history-menu').click()
    await expect(page.getByRole('menuitem', { name: 'Export all as JSON' })).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/menu-desktop-dark.png` })
    // The import's toast may still be up: Nuxt UI's toaster puts focus-guard spans inside its <ol>, which axe reports
    // whenever a toast shows. This check is of the menu and the page, so the toaster's region is left out.
    expect(await seriousViolations(page, { exclude: '[role="region"]' })).toEqual([])
  })

  test('ChatGPT\'s conversations.json imports with its branches, hidden system messages skipped', async ({ page }) => {
    await openApp(page)
    await importFile(page, CHATGPT_SAMPLE)
    await expect(page.getByText('Imported 2 chats, 10 messages; skipped 3 hidden system messages and 1 empty message.', { exact: true })).toBeVisible()
    await expect(page.getByTestId('thread-item')).toHaveCount(2)
    await expect(page.getByTestId('thread-item').filter({ hasText: 'Powers of two' })).toHaveCount(1)

    // The first conversation is opened at the branch ChatGPT showed: the edited question about Kyoto.
    const question = userMessages(page).first()
    await expect(question).toContainText('What should I see in Kyoto in three days?')
    await expect(userMessages(page)).toHaveCount(2)
    await expect(question.getByTestId('branch-position')).toHaveText('2/2')
    await question.getByRole('button', { name: 'Previous branch' }).click()
    await expect(userMessages(page).first()).toContainText('What should I see in Tokyo in three days?')
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('Day 1: Asakusa')

    // The code the model sent to python is a tool run with its output.
    await page.getByTestId('thread-item').filter({ hasText: 'Powers of two' }).getByRole('button').first().click()
    await expect(page.getByTestId('tool-card')).toHaveAttribute('data-tool', 'python')
    await expect(page.getByTestId('tool-card')).toContainText('1024')
    await expect(page.locator('[data-testid="message"][data-role="assistant"]').last()).toContainText('2 to the 10th is 1024.')
  })

  test('a file that is not a history is refused with what is wrong, and nothing is stored', async ({ page }, testInfo) => {
    await openApp(page)
    const path = testInfo.outputPath('bad.json')
    writeFileSync(path, JSON.stringify([{ title: 'Loop', mapping: { a: { id: 'a', parent: 'b', children: [], message: null }, b: { id: 'b', parent: 'a', children: [], message: null } } }]))
    await importFile(page, path)
    await expect(page.getByText('bad.json was not imported', { exact: true })).toBeVisible()
    await expect(page.getByText(/^conversations\[0\]\.mapping: the parent links form a cycle/)).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/refused-desktop-light.png` })
    await expect(page.getByTestId('thread-item')).toHaveCount(0)
  })
})

test.describe('export and import on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

  test('the chat list holds the menu (the header has no room) and imports ChatGPT\'s export', async ({ page }) => {
    await openApp(page)
    await expect(page.getByTestId('history-menu')).toBeHidden()
    await expect(page.getByTestId('settings-open')).toBeInViewport({ ratio: 1 })
    await page.getByRole('button', { name: 'Open chats' }).click()
    await page.getByTestId('history-menu-sidebar').click()
    await expect(page.getByRole('menuitem', { name: 'Import chats…' })).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/menu-phone-light.png` })
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('menuitem', { name: 'Import chats…' }).click()
    await (await chooser).setFiles(CHATGPT_SAMPLE)
    await expect(page.getByText(/^Imported 2 chats, 10 messages/)).toBeVisible()
    await expect(userMessages(page).first()).toContainText('Kyoto')
    await page.screenshot({ path: `${SHOTS}/imported-phone-light.png` })
    await page.evaluate(() => document.documentElement.classList.add('dark'))
    await page.getByRole('button', { name: 'Open chats' }).click()
    await page.getByTestId('history-menu-sidebar').click()
    await expect(page.getByRole('menuitem', { name: 'Export as JSON (all branches)' })).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/menu-phone-dark.png` })
  })
})
