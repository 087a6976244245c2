import type { CostingModel } from '#shared/types/rich-tool-definition'
import type { MessageRecord } from '~/db/types'
import { toolRowCost } from '~/utils/chat/catalog/tool-run-cost'

/** Characters per token for a tool result's size in tokens: the usual rough ratio for English text. */
const CHARACTERS_PER_TOKEN = 4

/** One reply of the model that reported usage. */
export interface ReplyUsage {
  messageId: string
  model?: string
  createdAt: number
  promptTokens: number
  completionTokens: number
  totalTokens: number
  /** As the provider reported it; undefined when it reported none. */
  cost?: number
}

/** The runs of one tool in the chat. */
export interface ToolUsage {
  toolName: string
  runs: number
  /** The size of its results in tokens (estimated from their length): what they add to the model's input. */
  resultTokens: number
  /** Estimated from the tool's costing model; 0 when it has none. */
  cost: number
  pricedRuns: number
}

/** The replies of one model. */
export interface ModelUsage {
  model: string
  replies: number
  totalTokens: number
  cost: number
}

export interface ChatUsage {
  /** Every reply's tokens: prompt + completion, as each request was billed. */
  tokens: number
  modelCost: number
  toolCost: number
  pricedToolRuns: number
  toolRuns: number
  /** Newest first. */
  replies: ReplyUsage[]
  /** Most runs first. */
  tools: ToolUsage[]
  /** Most tokens first. */
  models: ModelUsage[]
}

const UNKNOWN_MODEL = 'unknown model'

/**
 * A chat's usage from its stored rows: every reply's tokens and cost as the provider reported them, every tool
 * run's result size and estimated cost, summed per model and per tool. Pure: what the rows are (every branch, or
 * the path shown) is the caller's choice.
 */
export function chatUsage(rows: readonly MessageRecord[], costingModelOf: (toolName: string) => CostingModel | undefined): ChatUsage {
  const replies: ReplyUsage[] = []
  const tools = new Map<string, ToolUsage>()
  const models = new Map<string, ModelUsage>()
  let toolCost = 0
  let pricedToolRuns = 0
  let toolRuns = 0
  for (const row of rows) {
    if (row.role === 'assistant' && row.usage) {
      const promptTokens = row.usage.promptTokens ?? 0
      const completionTokens = row.usage.completionTokens ?? 0
      const totalTokens = row.usage.totalTokens ?? promptTokens + completionTokens
      replies.push({ messageId: row.id, model: row.model, createdAt: row.createdAt, promptTokens, completionTokens, totalTokens, cost: row.usage.cost })
      const key = row.model || UNKNOWN_MODEL
      const model = models.get(key) ?? { model: key, replies: 0, totalTokens: 0, cost: 0 }
      model.replies += 1
      model.totalTokens += totalTokens
      model.cost += row.usage.cost ?? 0
      models.set(key, model)
    }
    if (row.role === 'tool' && row.toolName) {
      const tool = tools.get(row.toolName) ?? { toolName: row.toolName, runs: 0, resultTokens: 0, cost: 0, pricedRuns: 0 }
      tool.runs += 1
      toolRuns += 1
      tool.resultTokens += Math.ceil((row.toolResultFull ?? row.content ?? '').length / CHARACTERS_PER_TOKEN)
      const cost = toolRowCost(row, costingModelOf(row.toolName))
      if (cost !== undefined) {
        tool.cost += cost
        tool.pricedRuns += 1
        toolCost += cost
        pricedToolRuns += 1
      }
      tools.set(row.toolName, tool)
    }
  }
  replies.sort((a, b) => b.createdAt - a.createdAt)
  const modelList = [...models.values()].sort((a, b) => b.totalTokens - a.totalTokens || a.model.localeCompare(b.model))
  return {
    tokens: replies.reduce((sum, reply) => sum + reply.totalTokens, 0),
    modelCost: modelList.reduce((sum, model) => sum + model.cost, 0),
    toolCost,
    pricedToolRuns,
    toolRuns,
    replies,
    tools: [...tools.values()].sort((a, b) => b.runs - a.runs || a.toolName.localeCompare(b.toolName)),
    models: modelList,
  }
}
