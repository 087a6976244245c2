import { array, number, object, string } from 'zod/mini'
import { DEFAULT_TOOL_SEARCH_THRESHOLD } from '#shared/tools/tool-search/tool-search-threshold'
import { persistedSetting } from '../persisted-setting'
import type { PersistedSetting } from '../persisted-setting'

/** When tool search starts, and which tools every request carries anyway. */
export interface ToolSearchSetting {
  /** More enabled tools than this and a request offers the always-on tools plus `find_tools`. */
  threshold: number
  /** Tools always offered (the app's built-in ones by default). */
  alwaysOn: string[]
}

export const TOOL_SEARCH_STORAGE_KEY = 'plugboard:tool-search:v1'

/** The built-in tools of `plugins/` and result paging: small, and what a chat needs most often. */
export const DEFAULT_ALWAYS_ON_TOOLS = ['calculate', 'get_current_time', 'get_weather', 'search_chat_history', 'search_documents', 'read_tool_result']

const schema = object({ threshold: number().check((context) => {
  if (!Number.isInteger(context.value) || context.value < 1 || context.value > 128) context.issues.push({ code: 'custom', message: 'a whole number from 1 to 128', input: context.value })
}), alwaysOn: array(string()) })

let setting: PersistedSetting<ToolSearchSetting> | undefined

/** The app's tool search setting (localStorage, followed across tabs). */
export function useToolSearchSetting(): PersistedSetting<ToolSearchSetting> {
  setting ??= persistedSetting(TOOL_SEARCH_STORAGE_KEY, {
    schema,
    defaults: () => ({ threshold: DEFAULT_TOOL_SEARCH_THRESHOLD, alwaysOn: [...DEFAULT_ALWAYS_ON_TOOLS] }),
    label: 'tool search setting',
  })
  return setting
}
