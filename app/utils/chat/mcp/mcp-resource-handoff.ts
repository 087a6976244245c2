/**
 * MCP resources on their way to the composer: Settings → MCP servers reads a resource into a file and hands it
 * here; the chat page takes the files into its composer's attachments (checked against the same limits as a
 * picked file). A hand-over, because the picker and the composer live in different parts of the page; kept apart
 * from the reading code so the chat page loads only this.
 */
import { shallowRef } from 'vue'

/** Files read from resources that the composer has not taken yet. */
export const mcpResourceFiles = shallowRef<readonly File[]>([])

/** Hands a file to the composer. */
export function handMcpResourceFile(file: File): void {
  mcpResourceFiles.value = [...mcpResourceFiles.value, file]
}

/** Takes the waiting files (the composer adds them). */
export function takeMcpResourceFiles(): File[] {
  const files = [...mcpResourceFiles.value]
  mcpResourceFiles.value = []
  return files
}
