/** A history file refused, with the problems found (`chats[2].messages[5].role: ...`). Nothing was stored. */
export class HistoryImportError extends Error {
  override readonly name = 'HistoryImportError'
  readonly problems: string[]

  constructor(problems: string[]) {
    const shown = problems.slice(0, 10)
    const more = problems.length > shown.length ? `\n…and ${problems.length - shown.length} more` : ''
    super(`Nothing was imported:\n${shown.join('\n')}${more}`)
    this.problems = problems
  }
}
