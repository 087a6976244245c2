/**
 * App attribution headers as OpenRouter documents them (https://openrouter.ai/docs/app-attribution): the app's URL
 * in `HTTP-Referer` and its display name in `X-Title`. A file of its own so the settings can name them without
 * loading the HTTP model.
 */
export function openRouterAttributionHeaders(appUrl: string, title: string): Record<string, string> {
  return { 'HTTP-Referer': appUrl, 'X-Title': title }
}
