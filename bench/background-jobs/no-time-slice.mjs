// Loaded with --import when BENCH_JOBS_NO_SLICE=1: see no-time-slice-hooks.mjs.
import { register } from 'node:module'

register('./no-time-slice-hooks.mjs', import.meta.url)
