import type { HighlightRequest, HighlightResponse } from './highlight-messages'
import { tokenizeCode } from './highlight-tokens'

/** Answers one request of the highlighting worker; never throws, so the page always hears back. */
export async function answerHighlightRequest({ id, code, language }: HighlightRequest): Promise<HighlightResponse> {
  try {
    return { id, tokens: await tokenizeCode(code, language) }
  }
  catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) }
  }
}
