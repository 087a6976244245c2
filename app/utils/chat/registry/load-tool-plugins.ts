import { isToolPlugin } from '#shared/tools/definition/define-tool'
import type { ToolPlugin } from '#shared/tools/definition/define-tool'
import { spawnToolWorker } from '../sandbox/spawn-tool-worker'
import { createWorkerToolSandbox } from '../sandbox/worker-tool-sandbox'
import type { SandboxWorker } from '../sandbox/worker-tool-sandbox'
import type { ToolRegistry } from './tool-registry-types'
import { nextTask } from '../scheduling/yield-to-page'
import { registerToolCard } from '../tool-cards/tool-card-registry'
import type { Component } from 'vue'

export interface LoadToolPluginsOptions {
  /** Starts a worker for tools that declare `sandbox: 'worker'`; called lazily, on their first call. @default spawnToolWorker */
  spawnWorker?: () => SandboxWorker
}

/** What `loadToolPlugins` did. */
export interface LoadToolPluginsResult {
  /** Names of the tools registered, in file order. */
  loaded: string[]
  /** Files that failed, with the reason logged. */
  failed: Array<{ file: string, reason: string }>
  /** Unregister every tool this call registered and stop their workers (hot reload of the plugin list). */
  dispose: () => void
}

/**
 * Register the tool of each plugin module. `modules` is what `import.meta.glob('…/plugins/*.ts')` returns:
 * path → lazy import. Files whose name starts with `_` are skipped (helpers, drafts). A file that fails to
 * import, or whose default export is not a valid `defineTool` result, is logged as
 * `Failed to load tool plugin plugins/<file>: <reason>`; every other tool still loads. Tools register in
 * file-name order, so the list is the same on every start. A tool that declares `sandbox: 'worker'` is
 * registered with a handler that runs it in a Web Worker loading the same file.
 */
export async function loadToolPlugins(
  modules: Record<string, () => Promise<unknown>>,
  registry: Pick<ToolRegistry, 'registerTool'>,
  options: LoadToolPluginsOptions = {},
): Promise<LoadToolPluginsResult> {
  const { spawnWorker = spawnToolWorker } = options
  const files = Object.keys(modules)
    .map(path => ({ path, file: path.split('/').pop() ?? path }))
    .filter(({ file }) => !file.startsWith('_'))
    .sort((a, b) => a.file.localeCompare(b.file))

  // import in parallel, register in order; each file is asked for in a task of its own (asking adds its preload
  // links, and asking for every file at once made start-up one long task)
  const loading: Array<Promise<unknown>> = []
  for (const [index, { path }] of files.entries()) {
    if (index > 0) await nextTask()
    const promise = modules[path]!()
    // settled below, with the others: not an unhandled rejection while the next files are asked for
    promise.catch(() => {})
    loading.push(promise)
  }
  const imported = await Promise.allSettled(loading)
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
      disposers.push(registerPlugin(registry, plugin, file, spawnWorker))
      // `export const card = defineAsyncComponent(() => import('./my-card.vue'))` beside the tool: its own card
      const card = (outcome.value as { card?: Component }).card
      if (card !== undefined) disposers.push(registerToolCard(plugin.definition.function.name, card))
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

function registerPlugin(registry: Pick<ToolRegistry, 'registerTool'>, plugin: ToolPlugin, file: string,
  spawn: () => SandboxWorker): () => void {
  if (plugin.definition.sandbox !== 'worker') return registry.registerTool(plugin.definition, plugin.handler)
  const sandbox = createWorkerToolSandbox({ file, toolName: plugin.definition.function.name, spawn })
  const unregister = registry.registerTool(plugin.definition, sandbox.handler)
  return () => {
    unregister()
    sandbox.dispose()
  }
}
