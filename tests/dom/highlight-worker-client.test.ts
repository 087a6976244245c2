import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown/markdown'
import { spawnInProcessHighlightWorker } from './helpers/in-process-highlight-worker'

// shiki runs only in the highlighting worker (the lint rule plugboard/shiki-in-the-worker keeps it out of the page):
// where the worker is missing or fails, code stays plain text.
const spawn = vi.hoisted(() => ({ worker: (): Worker | null => null, count: 0 }))
vi.mock('~/utils/chat/markdown/highlight/spawn-highlight-worker', () => ({
  spawnHighlightWorker: () => {
    spawn.count++
    return spawn.worker()
  },
}))

/** A worker whose script fails to load, as when the file is missing or refused. */
function workerThatDoesNotStart(): Worker {
  const worker = {
    onmessage: null,
    onerror: null as ((event: Partial<ErrorEvent>) => void) | null,
    postMessage() {
      queueMicrotask(() => worker.onerror?.({ message: 'failed to fetch the script' }))
    },
    terminate() {},
  }
  return worker as unknown as Worker
}

function mount(source: string): HTMLElement {
  const root = document.createElement('div')
  root.innerHTML = renderMarkdown(source)
  document.body.append(root)
  return root
}

// Each test gets the page's modules fresh: the client keeps its worker (or its absence) for the page's life.
async function freshHighlighter() {
  vi.resetModules()
  return (await import('~/utils/chat/markdown/highlight')).highlightCodeBlocks
}

beforeEach(() => {
  spawn.count = 0
  vi.spyOn(console, 'warn').mockImplementation(() => {})
})

describe('the highlighting worker\'s page side', () => {
  it('leaves code as plain text where there is no Web Worker, quietly', async () => {
    spawn.worker = () => null
    const highlightCodeBlocks = await freshHighlighter()
    const root = mount('```ts\nconst a = 1\n```')
    expect(await highlightCodeBlocks(root)).toBe(0)
    expect(root.querySelector('code')!.textContent).toBe('const a = 1\n')
    expect(root.querySelector('span.shiki-token')).toBeNull()
    expect(console.warn).not.toHaveBeenCalled()
  })

  it('keeps a block plain when the worker does not start, and a later block starts a new worker', async () => {
    spawn.worker = workerThatDoesNotStart
    const highlightCodeBlocks = await freshHighlighter()
    const first = mount('```ts\nconst a = 1\n```')
    expect(await highlightCodeBlocks(first)).toBe(0)
    expect(first.querySelector('span.shiki-token')).toBeNull()

    const working = spawnInProcessHighlightWorker()
    spawn.worker = () => working
    const second = mount('```ts\nconst b = 2\n```')
    expect(await highlightCodeBlocks(second)).toBe(1)
    expect(second.querySelectorAll('span.shiki-token').length).toBeGreaterThan(0)
    expect(spawn.count).toBe(2)
    // the page only asked; the tokens were made by the worker's handler
    expect(working.requests).toBe(1)
  })

  it('starts one worker for all the blocks of the page', async () => {
    const working = spawnInProcessHighlightWorker()
    spawn.worker = () => working
    const highlightCodeBlocks = await freshHighlighter()
    expect(await highlightCodeBlocks(mount('```js\nlet a = 1\n```\n\n```json\n{"b": 2}\n```'))).toBe(2)
    expect(await highlightCodeBlocks(mount('```py\nc = 3\n```'))).toBe(1)
    expect(spawn.count).toBe(1)
    expect(working.requests).toBe(3)
  })

  it('gives up after three workers that do not start: later code stays plain without starting more', async () => {
    spawn.worker = workerThatDoesNotStart
    const highlightCodeBlocks = await freshHighlighter()
    for (let block = 0; block < 6; block++) expect(await highlightCodeBlocks(mount(`\`\`\`ts\nconst a = ${block}\n\`\`\``))).toBe(0)
    expect(spawn.count).toBe(3)
  })
})
