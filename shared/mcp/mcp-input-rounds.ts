/**
 * Questions a stateless (2026-07-28) server asks in the middle of a call. Such a server cannot send the client a
 * request of its own (there is no stream to send it on): it answers the call with `resultType: "input_required"` and
 * the questions (`inputRequests`, e.g. an `elicitation/create`), and the client calls again with the answers
 * (`inputResponses`) and the server's `requestState`, unchanged, under a new JSON-RPC id.
 *
 * Here each question is handed to the SDK client as the server request it used to be, so the app's own handlers
 * (the elicitation form in the chat) answer it as they answer older servers; the SDK client sees one call and one
 * final result.
 */
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js'
import { isRecord } from '../types/is-record'

/** Rounds of questions one call may take: a server that never stops asking does not hold the call forever. */
export const MAX_INPUT_ROUNDS = 8
/** Questions one round may carry. */
const MAX_INPUT_REQUESTS = 16

export interface InputRoundsDeps {
  /** Sends a request to the server. */
  send: (message: JSONRPCMessage) => Promise<void>
  /** Hands a message to the SDK client. */
  deliver: (message: JSONRPCMessage) => void
}

interface Call {
  original: JSONRPCRequest
  rounds: number
}

type Answer = { result: unknown } | { error: { message: string } }

export function createInputRounds(deps: InputRoundsDeps) {
  /** Calls in flight, by the JSON-RPC id of their latest round on the wire. */
  const calls = new Map<string, Call>()
  /** Questions handed to the SDK client, by the id they were given. */
  const questions = new Map<string, (answer: Answer) => void>()
  let counter = 0

  function fail(call: Call, message: string) {
    deps.deliver({ jsonrpc: '2.0', id: call.original.id, error: { code: -32603, message } })
  }

  async function ask(method: string, params: unknown): Promise<unknown> {
    const id = `plugboard-input-${++counter}`
    const answer = new Promise<Answer>(resolve => questions.set(id, resolve))
    deps.deliver({ jsonrpc: '2.0', id, method, params: isRecord(params) ? params : {} } as JSONRPCMessage)
    const given = await answer
    if ('error' in given) throw new Error(`The server asked for ${method}, which was not answered: ${given.error.message}`)
    return given.result
  }

  async function nextRound(call: Call, result: Record<string, unknown>) {
    if (++call.rounds > MAX_INPUT_ROUNDS) return fail(call, `The server kept asking for more input after ${MAX_INPUT_ROUNDS} rounds; the call was stopped.`)
    const requests = isRecord(result.inputRequests) ? Object.entries(result.inputRequests) : []
    if (requests.length === 0 || requests.length > MAX_INPUT_REQUESTS) return fail(call, 'The server asked for input without a usable list of questions.')
    const inputResponses: Record<string, unknown> = {}
    try {
      for (const [key, request] of requests) {
        if (!isRecord(request) || typeof request.method !== 'string') throw new Error(`The server's question "${key}" is not a request.`)
        inputResponses[key] = await ask(request.method, request.params)
      }
    }
    catch (error) {
      return fail(call, error instanceof Error ? error.message : String(error))
    }
    const params = { ...call.original.params, inputResponses, ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}) }
    const id = `${String(call.original.id)}-round-${call.rounds}`
    calls.set(id, call)
    try {
      await deps.send({ ...call.original, id, params })
    }
    catch (error) {
      calls.delete(id)
      fail(call, error instanceof Error ? error.message : String(error))
    }
  }

  return {
    /** Notes a request going to the server, so its answer can be followed. */
    track(message: JSONRPCRequest) {
      calls.set(String(message.id), { original: message, rounds: 0 })
    },
    /** Takes a message from the server; true when it was a round of a call (handled here). */
    fromServer(message: JSONRPCMessage): boolean {
      if (!('id' in message) || 'method' in message) return false
      const call = calls.get(String(message.id))
      if (!call) return false
      calls.delete(String(message.id))
      if ('result' in message && isRecord(message.result) && message.result.resultType === 'input_required') {
        void nextRound(call, message.result)
        return true
      }
      deps.deliver({ ...message, id: call.original.id })
      return true
    },
    /** Takes a message from the SDK client; true when it was the answer to a question asked here. */
    fromClient(message: JSONRPCMessage): boolean {
      if (!('id' in message) || 'method' in message) return false
      const resolve = questions.get(String(message.id))
      if (!resolve) return false
      questions.delete(String(message.id))
      resolve('result' in message ? { result: message.result } : { error: { message: 'error' in message ? message.error.message : 'no answer' } })
      return true
    },
  }
}
