import { expect } from 'vitest'
import { HistoryImportError } from '~/utils/chat/history-transfer/history-import-error'
import { parseHistoryFile } from '~/utils/chat/history-transfer/parse-history-file'

/** The problems a history file is refused with; fails the test when the file is accepted. */
export function refusedHistoryFile(text: string): string[] {
  try {
    parseHistoryFile(text)
  }
  catch (error) {
    expect(error).toBeInstanceOf(HistoryImportError)
    return (error as HistoryImportError).problems
  }
  throw new Error('the file was accepted')
}
