import type { CodedText } from '#shared/errors/coded-text'
import { serverText } from '#shared/errors/server-messages'

/** A push that would take an owner past a cap of synced data. */
export class SyncQuotaError extends Error {
  /** The message as a code, for the route to send. */
  readonly text: CodedText
  constructor(readonly limit: 'records' | 'bytes', readonly max: number) {
    const text = limit === 'records'
      ? serverText('server.sync.tooManyRecords', { max })
      : serverText('server.sync.tooManyBytes', { megabytes: Math.round(max / 1024 / 1024) })
    super(text.message)
    this.text = text
    this.name = 'SyncQuotaError'
  }
}
