// The background-jobs bench's model, in a process of its own (forked with IPC) so its work is not on any instance's
// event loop: a loopback OpenAI-compatible server answering each chat's steps (tests/fixtures/tool-steps-model).
// It can hold every last-step request until released, so memory is measured with all chats alive.
// Messages in: { type: 'hold', expected } | { type: 'lost' } | { type: 'release' }. Out: { type: 'ready', url }, { type: 'held' }.
import { toolStepAnswer } from '../../tests/fixtures/tool-steps-model/tool-steps-model'
import { startToolStepsServer } from '../../tests/fixtures/tool-steps-model/tool-steps-server'

const steps = Number(process.env.BENCH_STEPS ?? 3)
let held: Array<() => void> = []
let holding = false
let expected = 0
let told = false

function checkHeld(): void {
  if (holding && !told && held.length >= expected) {
    told = true
    process.send!({ type: 'held' })
  }
}

const server = await startToolStepsServer((step, _body, reply) => {
  const send = () => reply(toolStepAnswer(step, steps, 'bench_noop'))
  if (holding && step >= steps) {
    held.push(send)
    checkHeld()
  }
  else send()
}, { keepAliveTimeoutMs: 120_000 })

process.on('message', (message: { type: string, expected?: number }) => {
  if (message.type === 'hold') {
    holding = true
    told = false
    expected = message.expected ?? 0
    checkHeld()
  }
  else if (message.type === 'lost') {
    expected--
    checkHeld()
  }
  else if (message.type === 'release') {
    holding = false
    const waiting = held
    held = []
    for (const send of waiting) send()
  }
  else if (message.type === 'close') {
    void server.close().then(() => process.exit(0))
  }
})
process.send!({ type: 'ready', url: server.url })
