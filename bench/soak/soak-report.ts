// The soak's checks and figures from what the clients read, what the upstream saw and the instances' memory.
import type { ChatTrace } from './chat-follower'
import type { InstanceSlot } from './instance-slots'
import type { UpstreamRecord } from './soak-upstream'

export interface SoakCheck { name: string, pass: boolean, detail: string }

export interface ReportInput {
  traces: ChatTrace[]
  /** The calm wave's chats (after the soak, no kills): their ends and ids are checked like the soak's. */
  calmTraces: ChatTrace[]
  upstream: UpstreamRecord
  slots: InstanceSlot[]
  timeline: { atMs: number, what: string }[]
  durationMs: number
  chatsPhaseMs: number
  boundMs: number
  settings: Record<string, number | string>
  loadAverage: { before: number, after: number }
}

/** RSS "back near its baseline": within 25 % of it or 40 MB, whichever is more. */
function nearBaseline(baselineMb: number, afterMb: number): boolean {
  return afterMb - baselineMb <= Math.max(40, baselineMb * 0.25)
}

/**
 * A calm wave of half the chats leaves RSS within 10 % (or 15 MB) of what it was, or of the warm baseline when it
 * was below it (a process restarted late warms up in the calm wave): no memory per chat stays.
 */
function plateaued(afterMb: number, afterCalmMb: number, warmMb: number): boolean {
  const before = Math.max(afterMb, warmMb)
  return afterCalmMb - before <= Math.max(15, before * 0.1)
}

const round = (value: number) => Math.round(value * 10) / 10

function countBy<T>(items: T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1
  return counts
}

export function buildReport(input: ReportInput) {
  const { slots } = input
  const traces = [...input.traces, ...input.calmTraces]
  // The warm-up's chats are not the soak's: what the upstream saw of them is left out.
  const soakChats = new Set(traces.map(trace => trace.chat))
  const upstream = {
    pageReads: new Map([...input.upstream.pageReads].filter(([page]) => soakChats.has(Number(page.split('-')[0])))),
    modelRequests: new Map([...input.upstream.modelRequests].filter(([chat]) => soakChats.has(chat))),
    repeatedToolMessages: input.upstream.repeatedToolMessages,
  }
  const ended = traces.filter(trace => trace.outcome === 'finish' || trace.outcome === 'fail')
  const unended = traces.filter(trace => !ended.includes(trace))
  const failsWithoutReason = traces.filter(trace => trace.outcome === 'fail' && (!trace.reason || trace.reason === '(no message)'))
  const repeated = traces.filter(trace => trace.repeatedIds.length > 0)
  const gapped = traces.filter(trace => trace.gaps.length > 0)
  const fetchCalls = traces.flatMap(trace => trace.plan.flatMap((tool, index) => (tool === 'fetch' ? [`${trace.chat}-${index}`] : [])))
  const pagesReadTwice = [...upstream.pageReads].filter(([, reads]) => reads > 1).map(([page, reads]) => `${page} ×${reads}`)
  const endsTwice = traces.flatMap(trace => Object.entries(trace.ends).filter(([, count]) => count > 1).map(([id, count]) => `${trace.chat}/${id} ×${count}`))
  const runsAgain = traces.flatMap(trace => Object.entries(trace.runs).filter(([, count]) => count > 1).map(([id, count]) => ({ chat: trace.chat, id, count, tool: trace.plan[Number(id.split('_').at(-1))] })))
  const fetchRunsAgain = runsAgain.filter(run => run.tool === 'fetch').map(run => `${run.chat}/${run.id} ×${run.count}`)
  const calcRunsAgain = runsAgain.filter(run => run.tool === 'calc').map(run => `${run.chat}/${run.id} ×${run.count}`)
  const expectedModelRequests = traces.reduce((sum, trace) => sum + trace.plan.length + 1, 0)
  const modelRequests = [...upstream.modelRequests.values()].reduce((sum, count) => sum + count, 0)

  const memory = slots.flatMap(slot => slot.processes.map((item, index) => ({
    slot: slot.name, process: index + 1, pid: item.pid, killed: item.killed ? 'yes' : 'no',
    coldMb: round(item.baselineMb), ...(item.warmMb !== undefined && { warmMb: round(item.warmMb) }), peakMb: round(item.peakMb), ...(item.afterMb !== undefined && { afterMb: round(item.afterMb) }),
    ...(item.afterCalmMb !== undefined && { afterCalmMb: round(item.afterCalmMb) }),
  })))
  // A slot's last process is compared with the slot's first one once warmed up (same build, same settings): a
  // restarted process is warm by the end, having run chats and takeovers.
  const finals = memory.filter(item => item.afterMb !== undefined)
    .map(item => ({ ...item, baselineMb: memory.find(first => first.slot === item.slot && first.process === 1)!.warmMb ?? item.coldMb }))

  const checks: SoakCheck[] = [
    { name: 'every chat ends within the bound', pass: unended.length === 0, detail: `${ended.length}/${traces.length} ended within ${input.boundMs / 1000} s (${traces.filter(trace => trace.outcome === 'finish').length} finish, ${traces.filter(trace => trace.outcome === 'fail').length} fail); never ended: ${unended.map(trace => `${trace.chat} (${trace.outcome})`).join(', ') || 'none'}` },
    { name: 'no live stream goes silent while its job goes on', pass: traces.every(trace => trace.silentStreams === 0), detail: `${traces.reduce((sum, trace) => sum + trace.silentStreams, 0)} streams without an event for 20 s, in chats ${traces.filter(trace => trace.silentStreams > 0).map(trace => trace.chat).join(', ') || 'none'}` },
    { name: 'every fail says why', pass: failsWithoutReason.length === 0, detail: `${failsWithoutReason.length} without a message` },
    { name: 'no event id repeats', pass: repeated.length === 0, detail: `${repeated.reduce((sum, trace) => sum + trace.repeatedIds.length, 0)} repeats in ${repeated.length} chats` },
    { name: 'no event id gaps', pass: gapped.length === 0, detail: `${gapped.reduce((sum, trace) => sum + trace.gaps.length, 0)} gaps in ${gapped.length} chats${gapped.length ? `: ${gapped.slice(0, 5).map(trace => `${trace.chat} [${trace.gaps.join(' ')}]`).join(', ')}` : ''}` },
    { name: 'no fetch_web_page call runs twice', pass: pagesReadTwice.length === 0 && fetchRunsAgain.length === 0, detail: `${upstream.pageReads.size} of ${fetchCalls.length} pages read; read twice: ${pagesReadTwice.join(', ') || 'none'}; started twice: ${fetchRunsAgain.join(', ') || 'none'}` },
    { name: 'no tool call ends twice', pass: endsTwice.length === 0 && upstream.repeatedToolMessages.length === 0, detail: `ended twice: ${endsTwice.join(', ') || 'none'}; a history answering a call twice: ${upstream.repeatedToolMessages.join(', ') || 'none'}` },
    { name: 'memory back near baseline', pass: finals.every(item => nearBaseline(item.baselineMb, item.afterMb!)), detail: finals.map(item => `${item.slot}: warm ${item.baselineMb} → peak ${item.peakMb} → after ${item.afterMb} MB`).join('; ') },
    { name: 'memory flat over a calm wave', pass: finals.every(item => item.afterCalmMb !== undefined && plateaued(item.afterMb!, item.afterCalmMb, item.baselineMb)), detail: finals.map(item => `${item.slot}: ${item.afterMb} → ${item.afterCalmMb} MB after ${input.calmTraces.length} more chats`).join('; ') },
  ]

  const tables = {
    chats: Object.entries(countBy(traces, trace => `${trace.outcome}${trace.reason ? `: ${trace.reason.slice(0, 80)}` : ''}`)).map(([outcome, chats]) => ({ outcome, chats })),
    integrity: [
      { figure: 'chats', value: traces.length },
      { figure: 'events read', value: traces.reduce((sum, trace) => sum + trace.events, 0) },
      { figure: 'stream connections (incl. reconnects)', value: traces.reduce((sum, trace) => sum + trace.connections, 0) },
      { figure: 'chats that needed a reconnect', value: traces.filter(trace => trace.connections > 1).length },
      { figure: 'streams dropped as silent (20 s)', value: traces.reduce((sum, trace) => sum + trace.silentStreams, 0) },
      { figure: 'longest wait between two events, s (p50 / max)', value: `${round(median(traces.map(trace => trace.longestWaitMs)) / 1000)} / ${round(Math.max(...traces.map(trace => trace.longestWaitMs)) / 1000)}` },
      { figure: 'chats that waited over 8 s for an event', value: traces.filter(trace => trace.longestWaitMs > 8000).length },
      { figure: 'POST /api/chats retries', value: traces.reduce((sum, trace) => sum + trace.startAttempts - 1, 0) },
      { figure: 'repeated ids', value: repeated.reduce((sum, trace) => sum + trace.repeatedIds.length, 0) },
      { figure: 'id gaps', value: gapped.reduce((sum, trace) => sum + trace.gaps.length, 0) },
      { figure: 'fetch_web_page calls planned / pages read / read twice', value: `${fetchCalls.length} / ${upstream.pageReads.size} / ${pagesReadTwice.length}` },
      { figure: 'calculate calls started again (resumed cut step, allowed)', value: calcRunsAgain.length },
      { figure: 'tool calls ended twice', value: endsTwice.length },
      { figure: 'tool calls that ended in an error (e.g. cut by a kill)', value: traces.reduce((sum, trace) => sum + trace.toolErrors.length, 0) },
      { figure: 'model requests (expected without takeovers)', value: `${modelRequests} (${expectedModelRequests})` },
      { figure: 'chat duration p50 / max, s', value: `${round(median(traces.map(trace => trace.durationMs)) / 1000)} / ${round(Math.max(...traces.map(trace => trace.durationMs)) / 1000)}` },
      { figure: 'soak duration, s', value: round(input.durationMs / 1000) },
    ],
    memory,
  }

  return {
    checks,
    tables,
    data: {
      settings: input.settings,
      checks,
      figures: Object.fromEntries(tables.integrity.map(row => [row.figure, row.value])),
      outcomes: tables.chats,
      memory,
      loadAverage: input.loadAverage,
      timeline: input.timeline,
      calcRunsAgain,
      toolErrors: countBy(traces.flatMap(trace => trace.toolErrors), error => error),
      unended: unended.map(trace => ({ chat: trace.chat, plan: trace.plan, jobId: trace.jobId, outcome: trace.outcome, lastId: trace.lastId, connections: trace.connections, silentStreams: trace.silentStreams, record: trace.record })),
      silences: traces.filter(trace => trace.silences.length > 0).map(trace => ({ chat: trace.chat, plan: trace.plan, jobId: trace.jobId, outcome: trace.outcome, connections: trace.connections, silences: trace.silences })),
      chatsPhaseMs: input.chatsPhaseMs,
    },
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}
