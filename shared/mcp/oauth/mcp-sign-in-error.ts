/** A sign-in that could not finish; its message is a sentence for the user (shown under the server in Settings). */
export class McpSignInError extends Error {
  override name = 'McpSignInError'
}
