// A runner thread for the tool bridge test: loads tool-bridge-thread.ts (a thread does not inherit tsx).
import { register } from 'tsx/esm/api'

register()
await import('./tool-bridge-thread.ts')
