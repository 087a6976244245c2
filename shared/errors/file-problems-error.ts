/**
 * A file refused as a whole, with every problem found (`chats[2].messages[5].role: ...`). The message lists the
 * first ten after `lead`; `problems` keeps them all for a fuller report.
 */
export class FileProblemsError extends Error {
  readonly problems: string[]

  constructor(lead: string, problems: string[]) {
    const shown = problems.slice(0, 10)
    const more = problems.length > shown.length ? `\n…and ${problems.length - shown.length} more` : ''
    super(`${lead}:\n${shown.join('\n')}${more}`)
    this.problems = problems
  }
}
