import type { CostingModel } from '../../types/rich-tool-definition'

/** What was measured of one run. */
export interface MeasuredUnits {
  durationMs?: number
  /** Tokens the tool reported or used (for `unit: 'token'`). */
  tokens?: number
}

/**
 * The estimated cost (USD) of one run: rate × seconds of duration, × tokens, or × 1 request. Undefined when the
 * unit was not measured (a token-priced tool that reported no tokens) or the model is unusable.
 */
export function estimateToolCost(model: CostingModel | undefined, units: MeasuredUnits): number | undefined {
  if (!model || typeof model.rate !== 'number' || !Number.isFinite(model.rate) || model.rate < 0) return undefined
  switch (model.unit) {
    case 'request': return model.rate
    case 'second': return units.durationMs !== undefined && units.durationMs >= 0 ? model.rate * units.durationMs / 1000 : undefined
    case 'token': return units.tokens !== undefined && units.tokens >= 0 ? model.rate * units.tokens : undefined
    default: return undefined
  }
}

/** '$0.0034', '<$0.0001', '$0.50', '$1.20': cents as usual, and enough digits to see smaller amounts. */
export function formatUsd(amount: number): string {
  if (amount === 0) return '$0'
  if (amount < 0.0001) return '<$0.0001'
  if (amount < 0.01) return `$${amount.toPrecision(2).replace(/0+$/, '').replace(/\.$/, '')}`
  return `$${amount.toFixed(2)}`
}
