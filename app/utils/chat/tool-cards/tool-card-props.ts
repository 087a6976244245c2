import { tryParseJson } from '#shared/security/parse-json'
import { isRecord } from '#shared/types/is-record'
import type { ToolCardData } from '../message-list/tool-card'
import type { ToolCardProps } from './tool-card-registry'

/** A tool's own card's props from the standard card's data: model-written text parsed without prototype keys. */
export function toolCardProps(card: ToolCardData): ToolCardProps {
  const parsedArgs = card.arguments ? tryParseJson(card.arguments) : undefined
  const args = parsedArgs?.ok && isRecord(parsedArgs.value) ? parsedArgs.value : undefined
  let result: unknown
  if (card.status === 'done' && card.fullResult !== undefined) {
    const parsed = tryParseJson(card.fullResult)
    result = parsed.ok ? parsed.value : card.fullResult
  }
  return { args, result, status: card.status, statusText: card.statusText, card }
}

