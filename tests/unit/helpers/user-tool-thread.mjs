// Node cannot load the worker's TypeScript by itself: tsx compiles it on this thread.
import { register } from 'tsx/esm/api'

register()
await import('./user-tool-thread.worker.ts')
