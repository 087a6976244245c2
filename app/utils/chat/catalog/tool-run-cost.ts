import type { CostingModel } from '#shared/types/rich-tool-definition'
import { estimateToolCost } from '#shared/tools/rich-definition/estimate-tool-cost'
import type { MessageRecord } from '~/db/types'

/** Characters per token for a tool priced by token that reports none: the usual rough ratio for English text. */
const CHARACTERS_PER_TOKEN = 4

/** What was measured of one run (a tool card's data has these fields). */
export interface ToolRun {
  status: string
  durationMs?: number
  /** The whole result text. */
  fullResult?: string
}

/**
 * The estimated cost of one finished run from its tool's costing model: seconds it ran, tokens of its result
 * (estimated from its length), or one request. Undefined for a run that has not finished or did not run.
 */
export function toolRunCost(run: ToolRun, model: CostingModel | undefined): number | undefined {
  if (!model || (run.status !== 'done' && run.status !== 'error') || run.durationMs === undefined) return undefined
  return estimateToolCost(model, {
    durationMs: Math.max(0, run.durationMs),
    tokens: Math.ceil((run.fullResult ?? '').length / CHARACTERS_PER_TOKEN),
  })
}

/** The same for a stored tool row. */
export function toolRowCost(row: Pick<MessageRecord, 'toolStatus' | 'startedAt' | 'finishedAt' | 'toolResultFull' | 'content'>, model: CostingModel | undefined): number | undefined {
  const durationMs = row.startedAt !== undefined && row.finishedAt !== undefined ? row.finishedAt - row.startedAt : undefined
  return toolRunCost({ status: row.toolStatus ?? '', durationMs, fullResult: row.toolResultFull ?? row.content }, model)
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
