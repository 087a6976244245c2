/**
 * Entry of the highlighting worker: code highlighting off the page's thread. shiki's tokenizer (JavaScript regex
 * engine) runs here, one request at a time in order; the page paints the tokens with DOM calls. The only copy of
 * shiki and its grammars in the build is this worker's.
 */
import { answerHighlightRequest } from './highlight-worker-handler'
import type { HighlightRequest, HighlightResponse } from './highlight-messages'

// The app's TypeScript lib is DOM, not WebWorker: name only the two members used.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<HighlightRequest>) => void) | null
  postMessage: (message: HighlightResponse) => void
}

scope.onmessage = (event) => {
  void answerHighlightRequest(event.data).then(response => scope.postMessage(response))
}
