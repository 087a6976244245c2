import { describe, expect, it, vi } from 'vitest'
import { extractPdfPages } from '~/utils/chat/documents/extract-pdf'
import { POLICY_PDF_PAGES, tinyPdf } from '~~/tests/fixtures/documents/tiny-pdf'
import { spawnInProcessPdfTextWorker } from './helpers/in-process-pdf-worker'

const spawned: Worker[] = []
const spawnFailing = vi.fn<() => Worker | undefined>(() => undefined)

vi.mock('~/utils/chat/documents/spawn-pdf-text-worker', () => ({
  spawnPdfTextWorker: () => {
    const worker = spawnFailing() ?? spawnInProcessPdfTextWorker()
    vi.spyOn(worker, 'terminate')
    spawned.push(worker)
    return worker
  },
}))

/** A worker whose script fails to load, as when the file is missing or blocked. */
function workerThatDoesNotStart(): Worker {
  const worker = {
    onmessage: null,
    onerror: null as ((event: Partial<ErrorEvent>) => void) | null,
    onmessageerror: null,
    postMessage() {
      queueMicrotask(() => worker.onerror?.({ message: 'failed to fetch the script', preventDefault() {} }))
    },
    terminate() {},
  }
  return worker as unknown as Worker
}

describe('reading a PDF in its own worker', () => {
  it('starts one worker per PDF and ends it once the pages come back', async () => {
    spawned.length = 0
    const first = await extractPdfPages(tinyPdf(POLICY_PDF_PAGES), 'policy.pdf')
    const second = await extractPdfPages(tinyPdf([['Second file']]), 'second.pdf')
    expect(first.map(page => page.page)).toEqual([1, 2])
    expect(second).toEqual([{ page: 1, text: 'Second file' }])
    expect(spawned).toHaveLength(2)
    for (const worker of spawned) expect(worker.terminate).toHaveBeenCalledOnce()
  })

  it('ends the worker and passes on its message when the file cannot be read', async () => {
    spawned.length = 0
    await expect(extractPdfPages(new TextEncoder().encode('not a pdf'), 'fake.pdf'))
      .rejects.toThrow('fake.pdf is not a readable PDF (damaged, or not a PDF at all).')
    expect(spawned[0]!.terminate).toHaveBeenCalledOnce()
  })

  it('says the PDF reader did not start when its worker fails to load, and ends it', async () => {
    spawned.length = 0
    spawnFailing.mockImplementationOnce(workerThatDoesNotStart)
    await expect(extractPdfPages(tinyPdf(POLICY_PDF_PAGES), 'policy.pdf'))
      .rejects.toThrow('policy.pdf could not be read as a PDF (the PDF reader did not start: failed to fetch the script).')
    expect(spawned[0]!.terminate).toHaveBeenCalledOnce()
  })
})
