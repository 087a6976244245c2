/** A push that would take an owner past a cap of synced data. */
export class SyncQuotaError extends Error {
  constructor(readonly limit: 'records' | 'bytes', readonly max: number) {
    super(limit === 'records'
      ? `Sync keeps at most ${max} records per account: delete old chats to sync new ones.`
      : `Sync keeps at most ${Math.round(max / 1024 / 1024)} MB per account: delete old chats or large tool results to sync new ones.`)
    this.name = 'SyncQuotaError'
  }
}
