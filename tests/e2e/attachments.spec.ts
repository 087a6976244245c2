import type { Page } from '@playwright/test'
import { expect, test, type OwnUpstream } from './support/own-upstream'
import { openApp, waitForIdle, waitForReady } from './helpers'
import { pngFile } from './support/png-file'
import { storedAttachments } from './support/stored-attachments'
import { storedRows } from './support/stored-rows'

const SMALL_PNG = pngFile(64, 48)

/** Sends what is in the composer (text and files) and waits until the user's message is stored. */
async function sendComposer(page: Page, text: string) {
  await page.getByTestId('composer-input').fill(text)
  await expect(page.getByTestId('send-button')).toBeEnabled()
  await page.getByTestId('send-button').click()
  await expect.poll(async () => (await storedRows(page).catch(() => [])).filter(row => row.role === 'user' && row.content === text).length, { timeout: 10_000 }).toBe(1)
}

/** The user parts of the last request the fake OpenRouter received that carried an image. */
async function lastImageRequestParts(upstream: OwnUpstream) {
  const requests = await upstream.requests()
  for (const request of requests.toReversed()) {
    const messages = request.body.messages as Array<{ role: string, content: unknown }>
    const user = messages.findLast(message => message.role === 'user')
    if (Array.isArray(user?.content)) return user.content as Array<Record<string, any>>
  }
  return undefined
}

test.describe('images through the OpenRouter proxy (a model that reads images)', () => {
  test.use({ baseURL: async ({ proxyUrl }, use) => use(proxyUrl) })
  test.beforeEach(async ({ upstream }) => {
    await upstream.clear()
  })

  test('an image attached with the button goes to the model as an image_url part, shows after a reload and opens full size', async ({ page, upstream }) => {
    await openApp(page)
    const attach = page.getByTestId('composer-attach')
    await expect(attach).toHaveAccessibleName('Attach images or files')
    await page.getByTestId('composer-attach-input').setInputFiles([{ name: 'chart.png', mimeType: 'image/png', buffer: SMALL_PNG }, { name: 'wide.png', mimeType: 'image/png', buffer: pngFile(3000, 600) }])
    await expect(page.getByTestId('composer-attachment')).toHaveCount(2)
    // removable before sending, from the keyboard
    await page.getByRole('button', { name: 'Remove wide.png' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByTestId('composer-attachment')).toHaveCount(1)
    await page.getByTestId('composer-attach-input').setInputFiles([{ name: 'wide.png', mimeType: 'image/png', buffer: pngFile(3000, 600) }])
    await expect(page.getByTestId('composer-attachment')).toHaveCount(2)

    await sendComposer(page, 'What do these show?')
    await waitForIdle(page)
    await expect(page.getByTestId('composer-attachment')).toHaveCount(0)

    const parts = await lastImageRequestParts(upstream)
    expect(parts?.[0]).toEqual({ type: 'text', text: 'What do these show?' })
    expect(parts?.slice(1).map(part => part.type)).toEqual(['image_url', 'image_url'])
    expect(parts![1]!.image_url.url).toMatch(/^data:image\/png;base64,iVBOR/)
    // the wide one was resized to 2048 px and re-encoded
    expect(parts![2]!.image_url.url).toMatch(/^data:image\/webp;base64,/)
    const rows = await storedAttachments(page)
    expect(rows.map(row => [row.name, row.width, row.height])).toEqual(expect.arrayContaining([['chart.png', 64, 48], ['wide.png', 2048, 410]]))

    await page.reload()
    await waitForReady(page)
    const thumbnails = page.getByTestId('message-image')
    await expect(thumbnails).toHaveCount(2)
    await expect(thumbnails.first().locator('img')).toHaveAttribute('src', /^blob:/)
    // the page's CSP lets it load (an image that failed to load has no natural width)
    await expect.poll(() => thumbnails.first().locator('img').evaluate(image => (image as HTMLImageElement).naturalWidth)).toBe(64)
    await thumbnails.first().click()
    const full = page.getByTestId('image-full')
    await expect(full).toBeVisible()
    await expect(full).toHaveAttribute('alt', 'chart.png')
    await page.keyboard.press('Escape')
    await expect(full).toHaveCount(0)
    await expect(thumbnails.first()).toBeFocused()
  })

  test('an image pasted into the text box is attached and sent', async ({ page, upstream }) => {
    await openApp(page)
    await page.getByTestId('composer-input').evaluate((textarea, base64) => {
      const bytes = Uint8Array.from(atob(base64), character => character.charCodeAt(0))
      const data = new DataTransfer()
      data.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }))
      textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
    }, SMALL_PNG.toString('base64'))
    await expect(page.getByTestId('composer-attachment')).toHaveCount(1)
    await expect(page.getByTestId('composer-attachment')).toContainText('screenshot.png')
    await sendComposer(page, 'And this one?')
    await waitForIdle(page)
    expect((await lastImageRequestParts(upstream))?.map(part => part.type)).toEqual(['text', 'image_url'])
  })
})

test.describe('attachments on the demo model (text only)', () => {
  test('a text-only model gets a note in the chat instead of the image; a document shows as a chip', async ({ page }) => {
    await openApp(page)
    await page.getByTestId('composer-attach-input').setInputFiles([
      { name: 'photo.png', mimeType: 'image/png', buffer: SMALL_PNG },
      { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Trip\nTokyo in May.') },
    ])
    await expect(page.getByTestId('composer-attachment')).toHaveCount(2)
    await sendComposer(page, 'Plan my trip')
    await waitForIdle(page)
    const question = page.locator('[data-testid="message"][data-role="user"]').last()
    await expect(question.getByTestId('loop-notice')).toContainText('This model does not read images: photo.png was not sent.')
    await expect(question.getByTestId('message-document')).toContainText('notes.md')
    await expect(question.getByTestId('message-document')).toContainText('20 bytes')
    // indexed for search_documents before the model was asked
    await expect(question.getByTestId('message-document')).toContainText('1 page, 1 passage')
    await expect(question.getByTestId('message-image')).toHaveCount(1)
  })

  test('files dropped on the composer are attached: the composer shows it is a drop target while they hover', async ({ page }) => {
    await openApp(page)
    const composer = page.locator('[data-slot="composer"]')
    const files = await page.evaluateHandle((base64) => {
      const bytes = Uint8Array.from(atob(base64), character => character.charCodeAt(0))
      const data = new DataTransfer()
      data.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }))
      data.items.add(new File(['# Dropped\nOsaka in June.'], 'dropped.md', { type: 'text/markdown' }))
      return data
    }, SMALL_PNG.toString('base64'))
    await composer.dispatchEvent('dragover', { dataTransfer: files })
    await expect(composer).toHaveAttribute('data-dragging', 'true')
    await composer.dispatchEvent('drop', { dataTransfer: files })
    await expect(composer).not.toHaveAttribute('data-dragging')
    await expect(page.getByTestId('composer-attachment')).toHaveCount(2)
    await expect(page.getByTestId('composer-attachment')).toContainText(['dropped.png', 'dropped.md'])
    await sendComposer(page, 'Here they are')
    await waitForIdle(page)
    const question = page.locator('[data-testid="message"][data-role="user"]').last()
    await expect(question.getByTestId('message-document')).toContainText('dropped.md')
    await expect(question.getByTestId('message-image')).toHaveCount(1)
  })

  test('a file over a limit, or of a kind that cannot be sent, is named with the reason and not attached', async ({ page }) => {
    // 21 MB cross into the page through the DevTools protocol: on a loaded machine that alone can take most of 30 s
    test.slow()
    await openApp(page)
    await page.getByTestId('composer-attach-input').setInputFiles([
      { name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(21 * 1024 * 1024, 0x20) },
      { name: 'clip.mp4', mimeType: 'video/mp4', buffer: Buffer.from('not a video') },
    ])
    // one notice naming each file and why
    const notice = page.getByText('2 files not attached', { exact: true }).filter({ visible: true })
    await expect(notice).toBeVisible()
    const reasons = page.getByText(/^huge\.pdf is 21 MB/).filter({ visible: true })
    await expect(reasons).toContainText('huge.pdf is 21 MB: a document may have at most 20 MB.')
    await expect(reasons).toContainText('clip.mp4 cannot be attached: only images (PNG, JPEG, WebP, GIF) and text, Markdown, code, CSV, JSON, HTML or PDF documents can.')
    await expect(page.getByTestId('composer-attachment')).toHaveCount(0)
  })

  test('deleting the chat deletes its attachments', async ({ page }) => {
    await openApp(page)
    await page.getByTestId('composer-attach-input').setInputFiles([{ name: 'photo.png', mimeType: 'image/png', buffer: SMALL_PNG }])
    await expect(page.getByTestId('composer-attachment')).toHaveCount(1)
    await sendComposer(page, 'Keep this picture')
    await waitForIdle(page)
    const threadId = new URL(page.url()).searchParams.get('thread')!
    await expect.poll(async () => (await storedAttachments(page, threadId)).length).toBe(1)
    const row = page.locator(`[data-thread-id="${threadId}"]`)
    await row.hover()
    await row.getByTestId('thread-delete').click()
    await row.getByTestId('thread-delete').click()
    await expect.poll(async () => (await storedAttachments(page, threadId)).length).toBe(0)
  })
})
