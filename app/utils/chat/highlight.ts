import type { HighlighterCore, LanguageRegistration } from 'shiki/core'

/**
 * Lazy syntax highlighting of rendered code blocks with shiki.
 *
 * Nothing here loads until a code block exists: shiki's core, the JavaScript regex engine (no WebAssembly, no
 * eval, so it runs under a CSP without 'unsafe-eval'), two themes, and each grammar only when a block in that
 * language appears. Highlighting rewrites the text of an existing `<code>` into token spans built with DOM calls
 * (textContent + CSS custom properties), never through HTML strings.
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

const THEMES = { light: 'github-light', dark: 'github-dark' } as const

let highlighterPromise: Promise<HighlighterCore> | null = null
const languageLoads = new Map<string, Promise<void>>()

/** The grammar id for a fence's language name, or undefined when we do not highlight it. */
export function resolveLanguage(name: string | undefined | null): string | undefined {
  if (!name) return undefined
  return LANGUAGE_ALIASES[name.trim().toLowerCase()]
}

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

function languageOf(code: Element): string | undefined {
  for (const name of Array.from(code.classList)) {
    if (name.startsWith('language-')) return resolveLanguage(name.slice('language-'.length))
  }
  return undefined
}

/** Replaces the text of one `<code>` with highlighted token spans (text only, styles as CSS variables). */
function paintTokens(highlighter: HighlighterCore, code: HTMLElement, language: string): void {
  const text = code.textContent ?? ''
  const { tokens } = highlighter.codeToTokens(text.replace(/\n$/, ''), { lang: language, themes: THEMES, defaultColor: false })
  const document = code.ownerDocument
  const fragment = document.createDocumentFragment()
  tokens.forEach((line, lineIndex) => {
    if (lineIndex > 0) fragment.append('\n')
    for (const token of line) {
      const span = document.createElement('span')
      span.className = 'shiki-token'
      span.textContent = token.content
      for (const [property, value] of Object.entries(token.htmlStyle ?? {})) {
        if (property.startsWith('--shiki-')) span.style.setProperty(property, value)
      }
      fragment.append(span)
    }
  })
  code.replaceChildren(fragment)
  code.classList.add('shiki-highlighted')
}

/**
 * Highlights every `pre > code.language-*` under `root` that is not highlighted yet and is in a language we ship.
 * Safe to call repeatedly; resolves when done. Failures leave the plain code in place.
 * @returns how many blocks were highlighted
 */
export async function highlightCodeBlocks(root: ParentNode): Promise<number> {
  const blocks = Array.from(root.querySelectorAll<HTMLElement>('pre > code[class*="language-"]'))
    .filter(code => !code.classList.contains('shiki-highlighted'))
    .map(code => ({ code, language: languageOf(code) }))
    .filter((block): block is { code: HTMLElement, language: string } => block.language !== undefined)
  if (blocks.length === 0) return 0
  try {
    const highlighter = await loadHighlighter()
    await Promise.all([...new Set(blocks.map(block => block.language))].map(language => ensureLanguage(highlighter, language)))
    let count = 0
    for (const { code, language } of blocks) {
      // The block may have been re-rendered or removed while grammars loaded.
      if (!code.isConnected || code.classList.contains('shiki-highlighted')) continue
      paintTokens(highlighter, code, language)
      count++
    }
    return count
  }
  catch (error) {
    console.warn('[plugboard] code highlighting failed; showing plain code', error)
    return 0
  }
}
