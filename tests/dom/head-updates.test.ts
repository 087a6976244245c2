// The head as Nuxt 3's client writes it (unhead 2.1, real), with a title pushed while a write is under way: the 404
// page's title arrives that way while the app starts.
import { createHead, renderDOMHead } from '@unhead/vue/client'
import { describe, expect, it } from 'vitest'
import { keepHeadUpdates } from '~/utils/head-updates'

/** A head whose first write reads the entries, then meets a page pushing its title before the write ends. */
function headWithTitlePushedMidWrite(keep: boolean) {
  document.title = 'Plugboard'
  const head = createHead({ document })
  if (keep) keepHeadUpdates(head)
  head.push({ title: 'Plugboard' })
  let pushed = false
  head.hooks.hook('tags:resolve', () => {
    if (pushed) return
    pushed = true
    head.push({ title: 'Page not found · Plugboard' })
  })
  return head
}

/** Resolves once unhead reports a write whose title is `title` (waits for the event, not for time). */
function titleWritten(head: ReturnType<typeof createHead>, title: string) {
  return new Promise<void>((resolve) => {
    head.hooks.hook('dom:rendered', () => {
      if (document.title === title) resolve()
    })
  })
}

describe('the head written while the page changes it', () => {
  it('shows a title pushed during a write', async () => {
    const head = headWithTitlePushedMidWrite(true)
    const written = titleWritten(head, 'Page not found · Plugboard')
    await renderDOMHead(head)
    await written
    expect(document.title).toBe('Page not found · Plugboard')
  })

  it('without it, unhead 2.1 leaves the title of the write under way (the fault this works around)', async () => {
    const head = headWithTitlePushedMidWrite(false)
    await renderDOMHead(head)
    // every write asked for has ended, and none is left to come
    await head._domUpdatePromise
    expect(head.dirty).toBe(false)
    expect(document.title).toBe('Plugboard')
  })
})
