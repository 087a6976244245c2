/**
 * Chats one instance runs at once when `NUXT_JOB_CONCURRENCY` is not set; more wait in the queue (for this or another
 * instance). Every running chat shares the instance's event loop with the streams it serves, so the bound keeps event
 * latency down when many chats arrive at once (see `npm run bench:jobs`). A chat waiting for an approval or for a
 * tab is parked: it gives its slot back until the answer comes (job-slots.ts).
 */
export const DEFAULT_JOB_CONCURRENCY = 10
