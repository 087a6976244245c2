import type { MessagePort, Worker } from 'node:worker_threads'
import { serialiseToolOutput } from '#shared/tools/tool-output'
import type { ServerToolDefinition, ToolRuntime } from '#shared/types/server-tools'
import { getServerTool, listServerTools, registerServerTool, unregisterServerTool } from '../../../chat/tool-registry'

/**
 * Server tools live in the main thread's registry (Nitro plugins register them there, closures and connections
 * included). A runner thread registers a stand-in for each, whose handler asks the main thread to run the real one:
 * the arguments go over, the result text (or the failure's message) and the handler's `status()` reports come back,
 * and an abort (timeout, Stop) goes over too. Only plain data crosses.
 */
export type ToolBridgeRequest =
  | { type: 'tools-list', id: number }
  | { type: 'tool-run', id: number, name: string, args: unknown, threadId: string, callId: string }
  | { type: 'tool-abort', id: number }

export type ToolBridgeReply =
  | { type: 'tools-listed', id: number, tools: BridgedTool[] }
  | { type: 'tool-status', id: number, text: string }
  | { type: 'tool-ended', id: number, ok: true, text: string }
  | { type: 'tool-ended', id: number, ok: false, message: string }

/** A server tool as the runner thread registers its stand-in. */
export interface BridgedTool {
  definition: ServerToolDefinition
  runtime: ToolRuntime
  timeoutMs: number
}

type Endpoint = Pick<MessagePort | Worker, 'postMessage' | 'on'>

/** Main thread: runs the tool calls `thread` sends, in this thread's registry. */
export function serveToolBridge(thread: Endpoint): void {
  const running = new Map<number, AbortController>()
  const reply = (message: ToolBridgeReply) => thread.postMessage(message)
  thread.on('message', (message: ToolBridgeRequest | { type: string }) => {
    if (message.type === 'tools-list') {
      const { id } = message as Extract<ToolBridgeRequest, { type: 'tools-list' }>
      reply({ type: 'tools-listed', id, tools: listServerTools().map(tool => ({ definition: tool.definition, runtime: tool.runtime, timeoutMs: tool.timeoutMs })) })
    }
    else if (message.type === 'tool-abort') {
      running.get((message as Extract<ToolBridgeRequest, { type: 'tool-abort' }>).id)?.abort(new Error('The tool call was cancelled.'))
    }
    else if (message.type === 'tool-run') {
      const call = message as Extract<ToolBridgeRequest, { type: 'tool-run' }>
      const controller = new AbortController()
      running.set(call.id, controller)
      void runHere(call, controller.signal, text => reply({ type: 'tool-status', id: call.id, text }))
        .then(ended => reply({ ...ended, type: 'tool-ended', id: call.id }))
        .finally(() => running.delete(call.id))
    }
  })
}

async function runHere(call: Extract<ToolBridgeRequest, { type: 'tool-run' }>, signal: AbortSignal, status: (text: string) => void): Promise<{ ok: true, text: string } | { ok: false, message: string }> {
  const tool = getServerTool(call.name)
  if (!tool || tool.runtime === 'client') return { ok: false, message: `Tool "${call.name}" is not registered on server.` }
  try {
    const value = await tool.handler(call.args, { signal, threadId: call.threadId, callId: call.callId, status, settings: {} })
    const output = serialiseToolOutput(value)
    return output.ok ? { ok: true, text: output.text } : { ok: false, message: `"${call.name}" ${output.reason}` }
  }
  catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

/** Runner thread: keeps stand-ins of the main thread's server tools in this thread's registry. */
export function createToolBridgeClient(main: Endpoint): { syncTools: () => Promise<void> } {
  let nextId = 0
  const waiting = new Map<number, (reply: ToolBridgeReply) => void>()
  const statusListeners = new Map<number, (text: string) => void>()
  let registered = new Set<string>()
  main.on('message', (message: ToolBridgeReply | { type: string }) => {
    if (message.type === 'tool-status') {
      const status = message as Extract<ToolBridgeReply, { type: 'tool-status' }>
      statusListeners.get(status.id)?.(status.text)
    }
    else if (message.type === 'tools-listed' || message.type === 'tool-ended') {
      const ended = message as ToolBridgeReply
      waiting.get(ended.id)?.(ended)
      waiting.delete(ended.id)
      statusListeners.delete(ended.id)
    }
  })
  const ask = (request: ToolBridgeRequest) => new Promise<ToolBridgeReply>((resolve) => {
    waiting.set(request.id, resolve)
    main.postMessage(request)
  })

  async function syncTools(): Promise<void> {
    const listed = await ask({ type: 'tools-list', id: nextId++ }) as Extract<ToolBridgeReply, { type: 'tools-listed' }>
    const names = new Set<string>()
    for (const tool of listed.tools) {
      const name = tool.definition.function.name
      names.add(name)
      registerServerTool(tool.definition, async (args, context) => {
        const id = nextId++
        statusListeners.set(id, context.status)
        const onAbort = () => main.postMessage({ type: 'tool-abort', id } satisfies ToolBridgeRequest)
        context.signal.addEventListener('abort', onAbort, { once: true })
        try {
          const ended = await ask({ type: 'tool-run', id, name, args, threadId: context.threadId, callId: context.callId }) as Extract<ToolBridgeReply, { type: 'tool-ended' }>
          if (!ended.ok) throw new Error(ended.message)
          return ended.text
        }
        finally {
          context.signal.removeEventListener('abort', onAbort)
        }
      }, { runtime: tool.runtime, timeoutMs: tool.timeoutMs, override: true })
    }
    for (const name of registered) if (!names.has(name)) unregisterServerTool(name)
    registered = names
  }
  return { syncTools }
}
