// The thread side of the tool bridge test, as a runner thread has it: stand-ins of the main thread's server tools in
// this thread's registry, run through the shared executor. Asked { type: 'run', name, args, timeoutMs }, it syncs
// the tools and answers { type: 'ran', result, statuses }.
import { parentPort } from 'node:worker_threads'
import { executeToolCalls } from '../../../shared/tools/execute-tool-calls'
import { toolSetFromArray } from '../../../shared/tools/tool-set'
import { createToolBridgeClient } from '../../../server/utils/background-jobs/runner/runner-thread/tool-bridge'
import { getServerTool } from '../../../server/utils/chat/tool-registry'

const main = parentPort!
const bridge = createToolBridgeClient(main)
let calls = 0
main.on('message', (message: { type: string, name: string, args: string, timeoutMs?: number }) => {
  if (message.type !== 'run') return
  void (async () => {
    await bridge.syncTools()
    const tool = getServerTool(message.name)
    const statuses: string[] = []
    const call = { id: `thread_call_${++calls}`, type: 'function' as const, function: { name: message.name, arguments: message.args } }
    const [result] = await executeToolCalls([call], toolSetFromArray(tool ? [{ ...tool.executable, ...(message.timeoutMs ? { timeoutMs: message.timeoutMs } : {}) }] : []), {
      threadId: 'bridge-test',
      onStatus: (_callId, text) => statuses.push(text),
    })
    main.postMessage({ type: 'ran', result, statuses })
  })()
})
main.postMessage({ type: 'ready' })
