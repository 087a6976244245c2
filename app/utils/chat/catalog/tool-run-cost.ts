import type { CostingModel } from '#shared/types/rich-tool-definition'
import { estimateToolCost } from '#shared/tools/rich-definition/estimate-tool-cost'
import type { MessageRecord } from '~/db/types'

/** Characters per token for a tool priced by token that reports none: the usual rough ratio for English text. */
const CHARACTERS_PER_TOKEN = 4

/**
 * The estimated cost of one finished tool row from its costing model: seconds it ran, tokens of its result
 * (estimated from its length), or one request. Undefined for a run that has not finished or did not run.
 */
export function toolRowCost(row: Pick<MessageRecord, 'toolStatus' | 'startedAt' | 'finishedAt' | 'toolResultFull' | 'content'>, model: CostingModel | undefined): number | undefined {
  if (!model || (row.toolStatus !== 'done' && row.toolStatus !== 'error')) return undefined
  if (row.startedAt === undefined || row.finishedAt === undefined) return undefined
  const result = row.toolResultFull ?? row.content ?? ''
  return estimateToolCost(model, {
    durationMs: Math.max(0, row.finishedAt - row.startedAt),
    tokens: Math.ceil(result.length / CHARACTERS_PER_TOKEN),
  })
}

/** A chat's totals: tokens and provider-reported cost of the model's replies, and the tools' estimated cost. */
export function chatCostTotals(rows: readonly MessageRecord[], costingModelOf: (toolName: string) => CostingModel | undefined) {
  let tokens = 0
  let modelCost = 0
  let toolCost = 0
  let pricedToolRuns = 0
  for (const row of rows) {
    if (row.role === 'assistant' && row.usage) {
      tokens += row.usage.totalTokens ?? (row.usage.promptTokens ?? 0) + (row.usage.completionTokens ?? 0)
      modelCost += row.usage.cost ?? 0
    }
    if (row.role === 'tool' && row.toolName) {
      const cost = toolRowCost(row, costingModelOf(row.toolName))
      if (cost !== undefined) {
        toolCost += cost
        pricedToolRuns += 1
      }
    }
  }
  return { tokens, modelCost, toolCost, pricedToolRuns }
}
