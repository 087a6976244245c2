/** Job ids the queues accept: BullMQ refuses ids that are integers or contain ':', so both queues refuse them. */
const QUEUE_JOB_ID = /^(?!\d+$)[\w-]{1,200}$/

/** Throws a TypeError unless `jobId` can name a queued job on either queue (a UUID can). */
export function assertQueueJobId(jobId: string): void {
  if (!QUEUE_JOB_ID.test(jobId)) {
    throw new TypeError(`Job id "${jobId.slice(0, 60)}" cannot be queued: use 1-200 letters, digits, '_' or '-', not only digits (a UUID works).`)
  }
}
