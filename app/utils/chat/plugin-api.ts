/**
 * Everything a tool plugin needs, from one module: design 000's API (`./tools`) and zod. Files in `plugins/`
 * import from here or from `~/utils/chat/tools`, so the registry's insides can change freely.
 */
import './zod-without-eval'
export * from './tools'
export { z } from 'zod'
