/**
 * A small city → IANA time zone table, enough for the demo model to fill `get_current_time`'s
 * `timezone` from prompts like "what time is it in Tokyo". Keys are lower case.
 */
export const DEMO_CITY_TIMEZONES: Readonly<Record<string, string>> = {
  'tokyo': 'Asia/Tokyo',
  'osaka': 'Asia/Tokyo',
  'seoul': 'Asia/Seoul',
  'beijing': 'Asia/Shanghai',
  'shanghai': 'Asia/Shanghai',
  'hong kong': 'Asia/Hong_Kong',
  'singapore': 'Asia/Singapore',
  'mumbai': 'Asia/Kolkata',
  'delhi': 'Asia/Kolkata',
  'new delhi': 'Asia/Kolkata',
  'dubai': 'Asia/Dubai',
  'moscow': 'Europe/Moscow',
  'istanbul': 'Europe/Istanbul',
  'athens': 'Europe/Athens',
  'berlin': 'Europe/Berlin',
  'paris': 'Europe/Paris',
  'madrid': 'Europe/Madrid',
  'rome': 'Europe/Rome',
  'amsterdam': 'Europe/Amsterdam',
  'london': 'Europe/London',
  'dublin': 'Europe/Dublin',
  'lisbon': 'Europe/Lisbon',
  'cairo': 'Africa/Cairo',
  'nairobi': 'Africa/Nairobi',
  'lagos': 'Africa/Lagos',
  'johannesburg': 'Africa/Johannesburg',
  'new york': 'America/New_York',
  'nyc': 'America/New_York',
  'toronto': 'America/Toronto',
  'chicago': 'America/Chicago',
  'denver': 'America/Denver',
  'los angeles': 'America/Los_Angeles',
  'san francisco': 'America/Los_Angeles',
  'seattle': 'America/Los_Angeles',
  'mexico city': 'America/Mexico_City',
  'sao paulo': 'America/Sao_Paulo',
  'são paulo': 'America/Sao_Paulo',
  'buenos aires': 'America/Argentina/Buenos_Aires',
  'sydney': 'Australia/Sydney',
  'melbourne': 'Australia/Melbourne',
  'auckland': 'Pacific/Auckland',
  'honolulu': 'Pacific/Honolulu',
  'utc': 'UTC',
}

// One pattern for all cities, compiled once: a single pass over the text instead of one scan per city.
// Longest names first, so at one position "new delhi" wins over "delhi"; the leftmost city wins overall.
// Whole words: no letter may touch either end.
const CITY_PATTERN = new RegExp(
  `(?<!\\p{L})(?:${Object.keys(DEMO_CITY_TIMEZONES)
    .sort((a, b) => b.length - a.length)
    .map(city => city.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|')})(?!\\p{L})`,
  'u',
)

/** The first known city named in `text` (whole words, any case), or undefined. */
export function findDemoCity(text: string): { city: string, timezone: string } | undefined {
  const city = CITY_PATTERN.exec(text.toLowerCase())?.[0]
  return city === undefined ? undefined : { city, timezone: DEMO_CITY_TIMEZONES[city]! }
}
