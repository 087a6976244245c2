import type { McpProbeProblem, McpProbeText } from './probe-types'

/** A network failure in words: from Node's error codes, or the relay's "Could not reach…" text, which quotes them. */
export interface NetworkFailure {
  problem: Extract<McpProbeProblem, 'unreachable' | 'tls' | 'timeout'>
  summary: string
  message: McpProbeText
}

const TLS = /CERT|certificate|SSL|TLS|self[- ]signed|UNABLE_TO_VERIFY|ERR_TLS|wrong version number/i
const DNS = /ENOTFOUND|EAI_AGAIN|getaddrinfo|does not resolve|no address/i
const REFUSED = /ECONNREFUSED|connection refused/i
const TIMEOUT = /ETIMEDOUT|timed? ?out|no answer within|TimeoutError/i

/** The error's own text and its causes' codes and messages, one line. */
export function errorText(error: unknown): string {
  const parts: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && current; depth++) {
    if (current instanceof Error || (typeof current === 'object' && current !== null)) {
      const { name, message, code } = current as { name?: string, message?: string, code?: string }
      parts.push([name, code, message].filter(Boolean).join(' '))
      current = (current as { cause?: unknown }).cause
    }
    else {
      parts.push(String(current))
      break
    }
  }
  return parts.join(' ← ')
}

/** Says what a failed connection to `host` means, from the error's text. */
export function describeNetworkFailure(host: string, text: string): NetworkFailure {
  if (TLS.test(text)) return { problem: 'tls', summary: `The secure connection to ${host} failed: its TLS certificate is not trusted (expired, self-signed or for another name).`, message: { key: 'tls', values: { host } } }
  if (DNS.test(text)) return { problem: 'unreachable', summary: `${host} could not be found (DNS): check the address.`, message: { key: 'dns', values: { host } } }
  if (REFUSED.test(text)) return { problem: 'unreachable', summary: `Nothing answers at ${host} (connection refused): is the server running on that port?`, message: { key: 'refused', values: { host } } }
  if (TIMEOUT.test(text)) return { problem: 'timeout', summary: `${host} did not answer in time.`, message: { key: 'slow', values: { host } } }
  return { problem: 'unreachable', summary: `${host} could not be reached.`, message: { key: 'unreachable', values: { host } } }
}
