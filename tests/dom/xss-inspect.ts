import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

/**
 * Shared by the xss-*.test.ts files (split so that vitest runs them in parallel, each in a fresh jsdom: DOMPurify
 * creates a document per call and jsdom slows down as they pile up).
 */

const corpus = resolve(process.cwd(), 'tests/fixtures/corpora/xss-vectors')

/** The 1,584 payloads of xss-vectors.json. */
export function loadXssVectors(): string[] {
  return JSON.parse(readFileSync(resolve(corpus, 'xss-vectors.json'), 'utf8'))
}

export function loadCorpusFile<T>(name: string): T {
  return JSON.parse(readFileSync(resolve(corpus, name), 'utf8')) as T
}

const ALLOWED_TAGS = new Set([
  'P', 'BR', 'HR', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'STRONG', 'EM', 'S', 'DEL', 'CODE', 'PRE', 'BLOCKQUOTE',
  'UL', 'OL', 'LI', 'A', 'IMG', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD',
])
const ALLOWED_ATTRIBUTES = new Set(['href', 'title', 'alt', 'src', 'class', 'start', 'target', 'rel', 'tabindex', 'loading'])
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'background', 'poster', 'srcset', 'data'])
const ACTIVE_TAGS = new Set(['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'STYLE', 'FRAME', 'FRAMESET', 'BASE', 'META', 'LINK', 'SVG', 'MATH'])

/** Browsers ignore control characters and whitespace inside a URL scheme: `java\tscript:` is still script. */
function normaliseUrl(value: string): string {
  return value.replace(/[\u0000-\u0020\u007F-\u00A0]+/g, '').toLowerCase()
}

const PLACEHOLDER_ATTRIBUTES = new Set(['type', 'class', 'data-remote-image', 'data-remote-src', 'data-alt', 'title'])
const PLACEHOLDER_SPAN_CLASSES = new Set(['chat-remote-image-action', 'chat-remote-image-host', 'chat-remote-image-alt'])

/** An image source the browser would fetch from another origin (or from the app's /api/) without a click. */
function isRemoteImageSource(src: string): boolean {
  if (/^data:image\/(?:png|gif|jpeg|webp);/i.test(src.trim())) return false
  try {
    const url = new URL(src, document.baseURI)
    return url.origin !== new URL(document.baseURI).origin || /^\/+api(?:\/|$)/i.test(decodeURIComponent(url.pathname))
  }
  catch {
    return true
  }
}

/**
 * Checks the code blocks' Copy buttons we add on purpose (see app/utils/chat/markdown/code-copy-buttons.ts) and takes them and
 * their wrapper out of `root`: a `div.chat-code-block` holding exactly our button and a `<pre>`, the button with exactly
 * our attributes and one label span of text. Anything else that looks like one is a finding.
 */
function takeOutCodeCopyButtons(root: DocumentFragment, findings: string[]): void {
  for (const wrapper of Array.from(root.querySelectorAll('div'))) {
    const [button, pre, ...rest] = Array.from(wrapper.children)
    const ours = wrapper.attributes.length === 1 && wrapper.getAttribute('class') === 'chat-code-block'
      && rest.length === 0 && button?.tagName === 'BUTTON' && pre?.tagName === 'PRE'
    if (!ours || !button || !pre) {
      findings.push('div that is not our code block wrapper')
      continue
    }
    const attributes = Array.from(button.attributes).map(attribute => `${attribute.name}=${attribute.value}`).sort().join(' ')
    if (attributes !== 'class=chat-code-copy data-code-copy= title=Copy code type=button') findings.push(`code copy button with other attributes: ${attributes}`)
    const label = button.firstElementChild
    if (button.children.length !== 1 || label?.tagName !== 'SPAN' || label.attributes.length !== 1 || label.getAttribute('class') !== 'chat-code-copy-label' || label.children.length !== 0) {
      findings.push('code copy button with other content')
    }
    wrapper.replaceWith(pre)
  }
}

/**
 * Checks the remote-image placeholders we add on purpose (see app/utils/chat/markdown/markdown-images.ts) and takes them out
 * of `root` so the general checks do not see them: exactly our attributes, an http(s) URL, spans with our classes
 * and text inside. Anything else that looks like one is a finding.
 */
function takeOutPlaceholders(root: DocumentFragment, findings: string[]): void {
  for (const button of Array.from(root.querySelectorAll('button'))) {
    const extra = Array.from(button.attributes).map(attribute => attribute.name).filter(name => !PLACEHOLDER_ATTRIBUTES.has(name))
    if (extra.length > 0) findings.push(`placeholder with other attributes: ${extra.join(', ')}`)
    if (button.getAttribute('type') !== 'button' || button.getAttribute('class') !== 'chat-remote-image') findings.push('button that is not our placeholder')
    let url: URL | undefined
    try {
      url = new URL(button.getAttribute('data-remote-src') ?? '')
    }
    catch {}
    if (!url || !/^https?:$/.test(url.protocol)) findings.push(`placeholder URL that is not http(s): ${button.getAttribute('data-remote-src')?.slice(0, 40)}`)
    if (!/^\d+$/.test(button.getAttribute('data-remote-image') ?? '')) findings.push('placeholder without a number')
    for (const child of Array.from(button.querySelectorAll('*'))) {
      if (child.tagName !== 'SPAN' || child.attributes.length !== 1 || !PLACEHOLDER_SPAN_CLASSES.has(child.getAttribute('class') ?? '')) {
        findings.push(`inside a placeholder: <${child.tagName.toLowerCase()}${Array.from(child.attributes).map(attribute => ` ${attribute.name}`).join('')}>`)
      }
    }
    button.remove()
  }
  for (const span of Array.from(root.querySelectorAll('span'))) {
    const target = span.getAttribute('data-remote-image-target')
    const attributes = Array.from(span.attributes).map(attribute => attribute.name).sort().join(',')
    const ours = span.getAttribute('class') === 'chat-remote-image-text' && span.children.length === 0
      && (attributes === 'class' || (attributes === 'class,data-remote-image-target' && /^\d+$/.test(target ?? '')))
    if (!ours) findings.push(`span that is not ours: ${attributes}`)
    span.replaceWith(span.textContent ?? '')
  }
}

/**
 * Everything dangerous in rendered HTML, as readable findings (empty when safe). The HTML is parsed into an
 * inert <template> of the jsdom document: nothing in it can load or run while we look. Our remote-image
 * placeholders and code Copy buttons are checked on their own; an `<img>` that would fetch from another origin is a finding.
 */
export function findDanger(html: string): string[] {
  const template = document.createElement('template')
  template.innerHTML = html
  const findings: string[] = []
  takeOutCodeCopyButtons(template.content, findings)
  takeOutPlaceholders(template.content, findings)
  for (const element of Array.from(template.content.querySelectorAll('*'))) {
    const tag = element.tagName.toUpperCase()
    if (ACTIVE_TAGS.has(tag)) findings.push(`<${tag.toLowerCase()}>`)
    if (tag === 'FORM' && element.hasAttribute('action')) findings.push('<form action>')
    if (!ALLOWED_TAGS.has(tag)) findings.push(`tag outside the allow-list: ${tag}`)
    for (const attribute of Array.from(element.attributes)) {
      const name = attribute.name.toLowerCase()
      if (name.startsWith('on')) findings.push(`${name} attribute`)
      if (name === 'srcdoc') findings.push('srcdoc attribute')
      if (name === 'style') findings.push('style attribute')
      if (!ALLOWED_ATTRIBUTES.has(name)) findings.push(`attribute outside the allow-list: ${name}`)
      if (URL_ATTRIBUTES.has(name) || name.endsWith(':href')) {
        const url = normaliseUrl(attribute.value)
        if (url.startsWith('javascript:') || url.startsWith('vbscript:')) findings.push(`${name}=${attribute.value.slice(0, 40)}`)
        if (url.startsWith('data:') && !(name === 'src' && /^data:image\/(?:png|gif|jpeg|webp);/.test(url))) findings.push(`${name}=data: URL`)
      }
    }
    if (tag === 'IMG' && element.hasAttribute('src') && isRemoteImageSource(element.getAttribute('src')!)) {
      findings.push(`remote image src=${element.getAttribute('src')!.slice(0, 40)}`)
    }
    if (tag === 'A' && element.hasAttribute('href') && element.getAttribute('rel') !== 'noopener noreferrer nofollow') findings.push('link without rel')
  }
  return findings
}

/** Renders every payload with `render` and returns those whose output has findings (with the findings). */
export function unsafePayloads(payloads: string[], render: (payload: string) => string): { payload: string, findings: string[] }[] {
  const failures: { payload: string, findings: string[] }[] = []
  for (const payload of payloads) {
    const findings = findDanger(render(payload))
    if (findings.length > 0) failures.push({ payload, findings })
  }
  return failures
}
