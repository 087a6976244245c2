// Loads runner-thread.ts in a worker thread (a thread does not inherit the parent's --import tsx, nor its hooks).
import { register } from 'tsx/esm/api'

register()
if (process.env.BENCH_JOBS_NO_SLICE === '1') await import('./no-time-slice.mjs')
await import('./runner-thread.ts')
