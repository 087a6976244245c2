import { getThreadToolChoices } from '~/db/thread-tool-choices'
import { createChatToolSet } from './tool-choice-overlay'
import { getToolRegistry } from '../registry/tool-registry-singleton'

let chatToolSet: ReturnType<typeof createChatToolSet> | undefined

/**
 * The app's per-chat layer over the tool registry (client only, like the registry): `getToolSet` builds a send's
 * tools from the chat's own choices stored with the chat; `notOfferedBecause` feeds the popover.
 */
export function getChatToolSet(): ReturnType<typeof createChatToolSet> {
  chatToolSet ??= createChatToolSet(getToolRegistry(), { readChoices: getThreadToolChoices })
  return chatToolSet
}
