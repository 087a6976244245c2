import { defineTool } from '~/utils/chat/plugin-api'

function resolveTimeZone(timezone: string | undefined): string {
  if (timezone === undefined || timezone.trim() === '') return Intl.DateTimeFormat().resolvedOptions().timeZone
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone.trim() })
    // as asked, not ICU's canonical form (which still says 'Asia/Calcutta' for 'Asia/Kolkata')
    return timezone.trim()
  }
  catch {
    throw new Error(`Unknown time zone "${timezone}". Use an IANA name such as "Europe/Paris", "America/New_York" or "UTC".`)
  }
}

/** The parts of `date` as a wall clock in `timeZone` shows them. */
function wallClock(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit',
    hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'long', timeZoneName: 'longOffset',
  }).formatToParts(date)
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find(entry => entry.type === type)?.value ?? ''
  // 'GMT+05:30' → '+05:30'; plain 'GMT' is UTC
  const offset = part('timeZoneName').replace('GMT', '') || '+00:00'
  return {
    iso: `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}${offset}`,
    weekday: part('weekday'),
    offset,
  }
}

export default defineTool({
  name: 'get_current_time',
  description: 'Get the current date and time, in the user\'s time zone or in a given IANA time zone.',
  parameters: {
    type: 'object',
    properties: {
      timezone: { type: 'string', description: 'IANA time zone such as "Europe/Paris" or "UTC". Omit for the user\'s own.' },
    },
    additionalProperties: false,
  } as const,
  icon: 'i-lucide-clock',
  category: 'Utilities',
  ui: { label: 'Current time' },
  catalog: { commandName: 'time', version: '1.0.0', inputs: { timezone: { advanced: true } } },
  handler({ timezone }) {
    const timeZone = resolveTimeZone(timezone)
    const now = new Date()
    const { iso, weekday, offset } = wallClock(now, timeZone)
    return {
      timezone: timeZone,
      local: iso,
      weekday,
      utcOffset: offset,
      utc: now.toISOString(),
      readable: new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'full', timeStyle: 'long' }).format(now),
    }
  },
})
