import { isToolPlugin } from './define-tool'
import type { ToolRegistry } from './tool-registry-types'

/** What `loadToolPlugins` did. */
export interface LoadToolPluginsResult {
  /** Names of the tools registered, in file order. */
  loaded: string[]
  /** Files that failed, with the reason logged. */
  failed: Array<{ file: string, reason: string }>
  /** Unregister every tool this call registered (hot reload of the plugin list). */
  dispose: () => void
}

/**
 * Register the tool of each plugin module. `modules` is what `import.meta.glob('…/plugins/*.ts')` returns:
 * path → lazy import. Files whose name starts with `_` are skipped (helpers, drafts). A file that fails to
 * import, or whose default export is not a valid `defineTool` result, is logged as
 * `Failed to load tool plugin plugins/<file>: <reason>`; every other tool still loads. Tools register in
 * file-name order, so the list is the same on every start.
 */
export async function loadToolPlugins(
  modules: Record<string, () => Promise<unknown>>,
  registry: Pick<ToolRegistry, 'registerTool'>,
): Promise<LoadToolPluginsResult> {
  const files = Object.keys(modules)
    .map(path => ({ path, file: path.split('/').pop() ?? path }))
    .filter(({ file }) => !file.startsWith('_'))
    .sort((a, b) => a.file.localeCompare(b.file))

  // import in parallel, register in order
  const imported = await Promise.allSettled(files.map(({ path }) => modules[path]!()))
  const disposers: Array<() => void> = []
  const result: LoadToolPluginsResult = { loaded: [], failed: [], dispose: () => disposers.forEach(dispose => dispose()) }

  imported.forEach((outcome, index) => {
    const { file } = files[index]!
    try {
      if (outcome.status === 'rejected') throw outcome.reason
      const plugin = (outcome.value as { default?: unknown } | null)?.default
      if (!isToolPlugin(plugin)) {
        throw new Error('the default export is not a tool made with defineTool() (export default defineTool({ ... }))')
      }
      disposers.push(registry.registerTool(plugin.definition, plugin.handler))
      result.loaded.push(plugin.definition.function.name)
    }
    catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      result.failed.push({ file, reason })
      console.error(`Failed to load tool plugin plugins/${file}: ${reason}`, error)
    }
  })
  return result
}
