export type { ParsedTextToolCall, TextToolCallDelta, TextToolCallOptions, TextToolCallResult } from './text-tool-call-types'
export { parseTextToolCalls } from './parse-text-tool-calls'
export { createTextToolCallStream, type TextToolCallStream } from './text-tool-call-stream'
export { describeToolsForTextMode } from './describe-tools-for-text-mode'
