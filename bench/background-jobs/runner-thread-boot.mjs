// Loads runner-thread.ts in a worker thread (a thread does not inherit the parent's --import tsx).
import { register } from 'tsx/esm/api'

register()
await import('./runner-thread.ts')
