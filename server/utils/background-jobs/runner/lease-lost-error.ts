/**
 * A runner wrote to a job it no longer holds: another runner claimed the job since (a takeover after this one
 * stalled past its lock), so its write was refused. The runner must stop at once: running on would run tools twice.
 */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError'
  readonly jobId: string
  /** The claim the refused write was made with. */
  readonly token: number

  constructor(jobId: string, token: number, options: { cause?: unknown } = {}) {
    super(`Job ${jobId} was taken over by another runner; this run (claim ${token}) stops.`, { cause: options.cause })
    this.jobId = jobId
    this.token = token
  }

  static isInstance(value: unknown): value is LeaseLostError {
    return value instanceof LeaseLostError || (value instanceof Error && value.name === 'LeaseLostError')
  }
}
