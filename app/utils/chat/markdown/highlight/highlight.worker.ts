/// <reference lib="webworker" />
import type { HighlightRequest, HighlightResponse } from './highlight-messages'
import { tokenizeCode } from './highlight-tokens'

// Code highlighting off the page's thread: shiki's tokenizer (JavaScript regex engine) runs here, one request at a
// time in order; the page paints the tokens with DOM calls.
const scope = self as unknown as DedicatedWorkerGlobalScope

scope.addEventListener('message', async (event: MessageEvent<HighlightRequest>) => {
  const { id, code, language } = event.data
  let response: HighlightResponse
  try {
    response = { id, tokens: await tokenizeCode(code, language) }
  }
  catch (error) {
    response = { id, error: error instanceof Error ? error.message : String(error) }
  }
  scope.postMessage(response)
})
