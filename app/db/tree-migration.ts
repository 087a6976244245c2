import type { Transaction } from 'dexie'

/**
 * The upgrade to the tree schema: a chat stored flat becomes one branch. Each row's parent is the row before it
 * (in `seq` order), every row is on the active path, and each thread's active leaf is its last row. Rows are
 * only given fields, never dropped.
 */
export async function linkRowsInOrder(transaction: Transaction): Promise<void> {
  const leaves = new Map<string, string>()
  let previous: { threadId: string, id: string } | undefined
  // `[threadId+seq]` order: a thread's rows come together, oldest first.
  await transaction.table('messages').orderBy('[threadId+seq]').modify((row: { id: string, threadId: string, parentId?: string, onPath?: 1 }) => {
    if (previous?.threadId === row.threadId) row.parentId = previous.id
    else delete row.parentId
    row.onPath = 1
    previous = { threadId: row.threadId, id: row.id }
    leaves.set(row.threadId, row.id)
  })
  const threads = transaction.table('threads')
  for (const [threadId, leafId] of leaves) await threads.update(threadId, { activeLeafId: leafId })
}
