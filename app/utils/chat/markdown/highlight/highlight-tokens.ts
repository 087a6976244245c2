import type { HighlighterCore, LanguageRegistration } from 'shiki/core'

/**
 * Code → coloured tokens with shiki, in the highlighting worker (only there: imported by the page too, its chunks
 * would ship twice). Nothing loads until the first call: shiki's core, the JavaScript regex engine (no
 * WebAssembly, no eval, so it runs under a CSP without 'unsafe-eval'), two themes, and each grammar only when code
 * in that language appears. The result is plain data (text and CSS custom property values), never HTML.
 */

type LanguageModule = Promise<{ default: LanguageRegistration[] }>

/** Grammars we ship, by shiki id. Each is its own chunk. */
const LANGUAGE_LOADERS: Record<string, () => LanguageModule> = {
  typescript: () => import('shiki/langs/typescript.mjs'),
  javascript: () => import('shiki/langs/javascript.mjs'),
  json: () => import('shiki/langs/json.mjs'),
  bash: () => import('shiki/langs/bash.mjs'),
  python: () => import('shiki/langs/python.mjs'),
  html: () => import('shiki/langs/html.mjs'),
  css: () => import('shiki/langs/css.mjs'),
  vue: () => import('shiki/langs/vue.mjs'),
  markdown: () => import('shiki/langs/markdown.mjs'),
}

const THEMES = { light: 'github-light', dark: 'github-dark' } as const

/** One coloured piece of a line: its text and its `--shiki-*` custom properties (light and dark colour, style). */
export interface CodeToken {
  content: string
  style: Record<string, string>
}

let highlighterPromise: Promise<HighlighterCore> | null = null
const languageLoads = new Map<string, Promise<void>>()

/** Loads shiki's core with both themes, once. */
export function loadHighlighter(): Promise<HighlighterCore> {
  highlighterPromise ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
    ])
    return createHighlighterCore({
      themes: [import('shiki/themes/github-light.mjs'), import('shiki/themes/github-dark.mjs')],
      langs: [],
      engine: createJavaScriptRegexEngine(),
    })
  })()
  // A failed load (offline chunk, old browser) should be retried by the next block, not cached forever.
  highlighterPromise.catch(() => {
    highlighterPromise = null
  })
  return highlighterPromise
}

async function ensureLanguage(highlighter: HighlighterCore, language: string): Promise<void> {
  let load = languageLoads.get(language)
  if (!load) {
    load = LANGUAGE_LOADERS[language]!().then(module => highlighter.loadLanguage(module.default))
    languageLoads.set(language, load)
    load.catch(() => languageLoads.delete(language))
  }
  await load
}

/**
 * The tokens of `code` (its last newline dropped, as a fence's text ends with one) line by line, in `language`
 * (a grammar id from `resolveLanguage`).
 */
export async function tokenizeCode(code: string, language: string): Promise<CodeToken[][]> {
  if (!LANGUAGE_LOADERS[language]) throw new Error(`No grammar for ${language}`)
  const highlighter = await loadHighlighter()
  await ensureLanguage(highlighter, language)
  const { tokens } = highlighter.codeToTokens(code.replace(/\n$/, ''), { lang: language, themes: THEMES, defaultColor: false })
  return tokens.map(line => line.map((token) => {
    const style: Record<string, string> = {}
    for (const [property, value] of Object.entries(token.htmlStyle ?? {})) {
      if (property.startsWith('--shiki-')) style[property] = value
    }
    return { content: token.content, style }
  }))
}
