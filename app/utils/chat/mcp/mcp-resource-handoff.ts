/**
 * MCP resources on their way to the composer: Settings → MCP servers reads a resource into a file and hands it
 * here; the chat page takes the files into its composer's attachments (checked against the same limits as a
 * picked file). A hand-over, because the picker and the composer live in different parts of the page; kept apart
 * from the reading code so the chat page loads only this.
 */
import { shallowRef } from 'vue'

/** Files read from resources that the composer has not taken yet. */
export const mcpResourceFiles = shallowRef<readonly File[]>([])

/** The resource URI of each handed file, for its attachment (its text then travels inline, under the URI). */
const resourceUris = new WeakMap<File, string>()

/** Hands a file read from the resource `uri` to the composer. */
export function handMcpResourceFile(file: File, uri?: string): void {
  if (uri) resourceUris.set(file, uri)
  mcpResourceFiles.value = [...mcpResourceFiles.value, file]
}

/** The resource a handed file was read from, if it was. */
export function mcpResourceUriOf(file: File): string | undefined {
  return resourceUris.get(file)
}

/** Takes the waiting files (the composer adds them). */
export function takeMcpResourceFiles(): File[] {
  const files = [...mcpResourceFiles.value]
  mcpResourceFiles.value = []
  return files
}
