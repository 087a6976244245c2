import { shallowRef } from 'vue'
import { downloadText } from '~/utils/audit/download-text'
import type { HistoryExportFormat } from '~/utils/chat/history-transfer/history-transfer'
import { importSummaryText } from '~/utils/chat/history-transfer/import-summary'
import { HistoryImportError } from '~/utils/chat/history-transfer/history-import-error'
import { indexImportedDocuments } from './index-message-documents'

/**
 * Export and import of chats as the header's menu and Settings → Data offer them: a file downloaded, or a file
 * imported whole with its summary (or what was wrong with it) told in a toast. The formats, their checks and zod
 * load when first used: the first screen does not need them.
 */
export function useHistoryTransfer() {
  const toast = useToast()
  const { t, n } = useI18n()
  const busy = shallowRef(false)
  const transfer = () => import('~/utils/chat/history-transfer/history-transfer')

  /** Downloads the chats named (all of them when none is named) as JSON (every branch) or Markdown. */
  async function download(format: HistoryExportFormat, threadIds?: string[]) {
    try {
      const file = await (await transfer()).exportChats(format, threadIds)
      if (file) downloadText([file.text], file.fileName, file.type)
    }
    catch (error) {
      toast.add({ title: t('history.exportFailed'), description: (error as Error).message, color: 'error' })
    }
  }

  /** Imports a file; the new chats' ids in file order, or undefined when nothing was imported. */
  async function importFile(file: File): Promise<string[] | undefined> {
    busy.value = true
    try {
      const result = await (await transfer()).importHistoryFile(file)
      toast.add({ title: importSummaryText(t, n, result.counts), color: 'success', icon: 'i-lucide-check' })
      // the files came with the chats, their search passages did not: documents are read again in the background
      indexImportedDocuments(result.threadIds).catch((error: unknown) => {
        toast.add({ title: t('history.documentsNotIndexed'), description: (error as Error).message, color: 'warning' })
      })
      return result.threadIds
    }
    catch (error) {
      const problems = error instanceof HistoryImportError ? error.problems : [(error as Error).message]
      toast.add({
        title: t('history.notImported', { name: file.name }),
        description: problems.slice(0, 4).join('\n') + (problems.length > 4 ? `\n${t('history.moreProblems', { count: problems.length - 4 })}` : ''),
        color: 'error',
        duration: 15_000,
      })
      return undefined
    }
    finally {
      busy.value = false
    }
  }

  /** Imports the file just picked in a file input (and empties it, so the same file can be picked again). */
  async function importChosenFile(event: Event): Promise<string[] | undefined> {
    const input = event.target as HTMLInputElement
    const file = input.files?.[0]
    input.value = ''
    return file ? importFile(file) : undefined
  }

  return { busy, download, importFile, importChosenFile }
}
