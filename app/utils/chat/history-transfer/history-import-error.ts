import { FileProblemsError } from '#shared/errors/file-problems-error'

/** A history file refused, with the problems found (`chats[2].messages[5].role: ...`). Nothing was stored. */
export class HistoryImportError extends FileProblemsError {
  override readonly name = 'HistoryImportError'

  constructor(problems: string[]) {
    super('Nothing was imported', problems)
  }
}
