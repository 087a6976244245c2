/**
 * The languages we highlight, by the names models write after a fence. Only names: the page reads this to pick the
 * blocks it sends to the highlighting worker, and the grammars themselves are loaded in the worker alone
 * (`highlight-tokens.ts`).
 */

/** Names models write after the fence, mapped to the grammar that reads them. */
const LANGUAGE_ALIASES: Record<string, string> = {
  ts: 'typescript', typescript: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', javascript: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', node: 'javascript',
  json: 'json', jsonc: 'json', json5: 'json',
  bash: 'bash', sh: 'bash', shell: 'bash', shellscript: 'bash', zsh: 'bash', console: 'bash',
  python: 'python', py: 'python', python3: 'python',
  html: 'html', htm: 'html', xml: 'html', svg: 'html',
  css: 'css',
  vue: 'vue',
  md: 'markdown', markdown: 'markdown',
}

/** The grammar id for a fence's language name, or undefined when we do not highlight it. */
export function resolveLanguage(name: string | undefined | null): string | undefined {
  if (!name) return undefined
  return LANGUAGE_ALIASES[name.trim().toLowerCase()]
}
