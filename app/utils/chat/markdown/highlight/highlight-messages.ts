import type { CodeToken } from './highlight-tokens'

/** The page asks the highlighting worker to colour one block. */
export interface HighlightRequest {
  id: number
  code: string
  language: string
}

/** The worker's answer: the tokens, or why there are none (the page then keeps the plain code). */
export type HighlightResponse = { id: number, tokens: CodeToken[][] } | { id: number, error: string }
