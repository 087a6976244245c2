import { describe, expect, it } from 'vitest'
import { classifyFile } from '~/utils/chat/attachments/attachment-kind'
import { MAX_ATTACHMENTS_PER_MESSAGE, MAX_CHAT_ATTACHMENT_BYTES, MAX_DOCUMENT_BYTES, MAX_IMAGE_SIDE } from '~/utils/chat/attachments/attachment-limits'
import { prepareAttachments } from '~/utils/chat/attachments/prepare-attachments'
import { fitWithin, reencodeTypeOf } from '~/utils/chat/attachments/resize-image'

/** A File that says it is `size` bytes without holding them. */
function fileOf(name: string, type: string, size = 10): File {
  const file = new File(['x'], name, { type })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

const fakeResize = async (file: File, mime: string) => ({ blob: new Blob(['small'], { type: mime }), mime, width: 100, height: 50 })

describe('image resizing bounds', () => {
  it('keeps the longest side at most 2048 px and the proportions', () => {
    expect(MAX_IMAGE_SIDE).toBe(2048)
    expect(fitWithin(4032, 3024)).toEqual({ width: 2048, height: 1536 })
    expect(fitWithin(1000, 6000)).toEqual({ width: 341, height: 2048 })
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600 })
    expect(fitWithin(20_000, 1)).toEqual({ width: 2048, height: 1 })
  })

  it('re-encodes JPEG as JPEG and PNG or WebP as WebP (which keeps transparency)', () => {
    expect(reencodeTypeOf('image/jpeg')).toBe('image/jpeg')
    expect(reencodeTypeOf('image/png')).toBe('image/webp')
    expect(reencodeTypeOf('image/webp')).toBe('image/webp')
  })
})

describe('what can be attached', () => {
  it.each([
    ['photo.png', 'image/png', 'image'],
    ['photo.JPG', '', 'image'],
    ['anim.gif', 'image/gif', 'image'],
    ['notes.md', '', 'document'],
    ['notes.md', 'text/markdown', 'document'],
    ['data.csv', 'text/csv', 'document'],
    ['report.pdf', 'application/pdf', 'document'],
    ['page.html', 'text/html', 'document'],
    ['main.py', 'text/x-python', 'document'],
    ['main.ts', 'video/mp2t', undefined],
    ['data.json', 'application/json', 'document'],
  ])('%s (%s) is taken as %s', (name, type, kind) => {
    const result = classifyFile({ name, type })
    if (kind) expect(result).toMatchObject({ kind })
    else expect(result).toHaveProperty('refused')
  })

  it('refuses other files with a sentence naming the file and what is accepted', () => {
    expect(classifyFile({ name: 'movie.mp4', type: 'video/mp4' })).toEqual({ refused: expect.stringMatching(/^movie\.mp4 cannot be attached: only images \(PNG, JPEG, WebP, GIF\)/) })
    expect(classifyFile({ name: 'icon.svg', type: 'image/svg+xml' })).toEqual({ refused: expect.stringMatching(/^icon\.svg is a SVG\+XML image: only PNG, JPEG, WebP and GIF/) })
  })
})

describe('the limits, checked before anything is stored', () => {
  it('refuses a document over 20 MB by name and size, and keeps the others', async () => {
    const { drafts, refusals } = await prepareAttachments([fileOf('big.pdf', 'application/pdf', MAX_DOCUMENT_BYTES + 1), fileOf('ok.md', 'text/markdown')], { resize: fakeResize })
    expect(drafts.map(draft => draft.name)).toEqual(['ok.md'])
    expect(refusals).toEqual(['big.pdf is 20 MB: a document may have at most 20 MB.'])
  })

  it('takes at most 10 files per message, counting those already waiting', async () => {
    const files = Array.from({ length: 12 }, (_, index) => fileOf(`f${index}.txt`, 'text/plain'))
    const first = await prepareAttachments(files.slice(0, 3), { resize: fakeResize })
    const second = await prepareAttachments(files.slice(3), { pending: first.drafts, resize: fakeResize })
    expect(first.drafts.length + second.drafts.length).toBe(MAX_ATTACHMENTS_PER_MESSAGE)
    expect(second.refusals).toEqual([
      'f10.txt was not attached: a message can carry at most 10 files.',
      'f11.txt was not attached: a message can carry at most 10 files.',
    ])
  })

  it('refuses what would take the chat past 200 MB', async () => {
    const { drafts, refusals } = await prepareAttachments([fileOf('a.txt', 'text/plain', 2000)], { chatBytes: MAX_CHAT_ATTACHMENT_BYTES - 1000, resize: fakeResize })
    expect(drafts).toEqual([])
    expect(refusals[0]).toMatch(/^a\.txt was not attached: the files of one chat may take at most 200 MB/)
  })

  it('stores images as resized, and a resize failure is told by name', async () => {
    const { drafts, refusals } = await prepareAttachments([fileOf('p.png', 'image/png', 5_000_000), fileOf('broken.jpg', 'image/jpeg')], {
      resize: async (file, mime) => {
        if (file.name === 'broken.jpg') throw new Error('broken.jpg could not be read as an image.')
        return fakeResize(file, mime)
      },
    })
    expect(drafts).toEqual([expect.objectContaining({ kind: 'image', name: 'p.png', size: 5, width: 100, height: 50 })])
    expect(refusals).toEqual(['broken.jpg could not be read as an image.'])
  })

  it('refuses an empty file', async () => {
    expect((await prepareAttachments([fileOf('empty.txt', 'text/plain', 0)], { resize: fakeResize })).refusals).toEqual(['empty.txt is empty.'])
  })
})
