// A second app instance's worker, in a process of its own so a test can SIGKILL it mid-job:
//   node --import tsx tests/unit/helpers/queue-worker-process.ts
// with REDIS_URL and QUEUE_NAME set. It takes jobs, says `started <jobId> <attempt>` and never finishes them.
import { createBullmqJobQueue } from '../../../server/utils/background-jobs/queue/bullmq-job-queue'

const queue = createBullmqJobQueue<unknown>({
  url: process.env.REDIS_URL!,
  name: process.env.QUEUE_NAME!,
  // A short claim, so the job is free to take over soon after this process dies. Every instance's checks share
  // one pace (the last checker holds the others off for its stalledInterval), so this one checks often too.
  lockDurationMs: 1000,
  stalledIntervalMs: 200,
})
queue.startWorker(async (jobId, _data, { attempt }) => {
  process.stdout.write(`started ${jobId} ${attempt}\n`)
  await new Promise(() => {})
})
process.stdout.write('ready\n')
