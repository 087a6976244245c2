let format: Intl.DateTimeFormat | undefined

/**
 * A chat's date in the chat list ("Nov 22", in the browser's language). One formatter for every row:
 * `toLocaleDateString` with options builds a new one per call, and the first one loads the language's data (10–20
 * ms on a slow machine), which `warm-chat-list.client.ts` does in a task of its own before the list mounts.
 */
export function formatThreadDate(timestamp: number): string {
  format ??= new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' })
  return format.format(timestamp)
}
