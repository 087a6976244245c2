/** A readable label from a tool name: 'get_weather' → 'Get weather', 'searchChatHistory' → 'Search chat history'. */
export function labelFromToolName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    // keep acronyms ('URL', 'ID') as written, lower-case the rest
    .map(word => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()))
  if (words.length === 0) return name
  const [first, ...rest] = words
  return [first!.charAt(0).toUpperCase() + first!.slice(1), ...rest].join(' ')
}
