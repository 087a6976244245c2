import type { CodedText } from '#shared/errors/coded-text'

/** A new background chat would take its session or its client (IP) past a cap on unfinished chats (job-admission.ts). */
export class JobLimitError extends Error {
  override readonly name = 'JobLimitError'
  /** Whose cap: the browser session's, or every session's from one IP. */
  readonly scope: 'session' | 'ip'
  /** Which cap: the number of unfinished chats, or the bytes their state holds. */
  readonly limit: 'jobs' | 'bytes'

  /** The message as a code, for the route to send. */
  readonly text: CodedText

  constructor(options: { scope: 'session' | 'ip', limit: 'jobs' | 'bytes', text: CodedText }) {
    super(options.text.message)
    this.text = options.text
    this.scope = options.scope
    this.limit = options.limit
  }

  static isInstance(value: unknown): value is JobLimitError {
    return value instanceof JobLimitError || (value instanceof Error && value.name === 'JobLimitError')
  }
}
