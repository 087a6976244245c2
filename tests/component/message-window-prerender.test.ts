import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { useMessageWindow } from '~/composables/useMessageWindow'
import { PlugboardDatabase, setDatabase } from '~/db/database'
import type { MessageRecord } from '~/db/types'
import { splitMarkdownBlocks } from '~/utils/chat/markdown/markdown-blocks'
import { isMarkdownCached } from '~/utils/chat/markdown/markdown-cache'

// The open chat's window renders the markdown of the replies it read in idle time, the older pages too, so the
// list mounts them from the cache when the user scrolls up to them.

let db: PlugboardDatabase
const mounted: Array<{ unmount: () => void }> = []
beforeEach(() => {
  db = new PlugboardDatabase('message-window-prerender', { indexedDB: new IDBFactory(), IDBKeyRange })
  setDatabase(db)
})
afterEach(() => {
  mounted.splice(0).forEach(wrapper => wrapper.unmount())
  db.close()
  setDatabase(undefined)
})

async function storeChat(threadId: string, replies: number): Promise<MessageRecord[]> {
  const rows: MessageRecord[] = []
  for (let turn = 1; turn <= replies; turn++) {
    for (const role of ['user', 'assistant'] as const) {
      const seq = rows.length + 1
      const content = role === 'user' ? `Question ${threadId} ${turn}` : `Answer **${threadId} ${turn}**.\n\n- item ${turn}\n- more`
      rows.push({ id: `${threadId}-${seq}`, threadId, seq, parentId: rows.at(-1)?.id, onPath: 1, role, content, status: 'complete', createdAt: seq, updatedAt: seq })
    }
  }
  await db.threads.put({ id: threadId, title: threadId, createdAt: 1, updatedAt: 1, activeLeafId: rows.at(-1)?.id })
  await db.messages.bulkPut(rows)
  return rows
}

async function openWindow(threadId: string) {
  let api!: ReturnType<typeof useMessageWindow>
  const Probe = defineComponent({
    setup() {
      api = useMessageWindow(() => threadId, { initialSize: 20, pageSize: 40 })
      return () => h('div')
    },
  })
  mounted.push(await mountSuspended(Probe))
  return api
}

const blocksOf = (rows: MessageRecord[]) => rows.filter(row => row.role === 'assistant').flatMap(row => splitMarkdownBlocks(row.content))

describe('useMessageWindow', () => {
  it('renders the replies it read into the markdown cache, and those of each older page once it is read', async () => {
    const rows = await storeChat(`warm-${Date.now()}`, 50)
    const api = await openWindow(rows[0]!.threadId)
    await vi.waitFor(() => expect(api.rows.value).toHaveLength(20), { timeout: 5_000 })
    const shown = rows.slice(-20)
    await vi.waitFor(() => expect(blocksOf(shown).every(isMarkdownCached)).toBe(true), { timeout: 5_000 })
    // Rows not read yet are not rendered.
    expect(blocksOf(rows.slice(0, 40)).some(isMarkdownCached)).toBe(false)

    api.loadOlder()
    await vi.waitFor(() => expect(api.rows.value).toHaveLength(60), { timeout: 5_000 })
    await vi.waitFor(() => expect(blocksOf(rows.slice(-60)).every(isMarkdownCached)).toBe(true), { timeout: 5_000 })
  })
})
