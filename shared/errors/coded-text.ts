/**
 * A sentence meant for a person, as a stable code with its parameters plus the English text. shared/ has no
 * translations: the app shows the code's entry in its catalogs (`codes.<code>`) in the user's language, while logs,
 * the model and older clients keep reading `message`. Templates use the catalogs' `{name}` placeholders.
 */
export type CodedParams = Record<string, string | number>

export interface CodedText {
  /** Stable across releases: a catalog key under `codes.` (`mcp.unreachable`). */
  code: string
  params: CodedParams
  /** The English sentence, the template filled with `params`. */
  message: string
  /** A coded sentence quoted as `{reason}` (a server's refusal inside the app's own sentence), said in the same language. */
  reason?: CodedText
}

/** `template` with each `{name}` replaced by its parameter (a missing one stays as written). */
export function fillTemplate(template: string, params: CodedParams = {}): string {
  return template.replace(/\{\s*(\w+)\s*\}/g, (whole, name: string) => name in params ? String(params[name]) : whole)
}

/** A coded sentence from a table of English templates; the code must be one of the table's. */
export function codedText<Code extends string>(templates: Readonly<Record<Code, string>>, code: Code, params: CodedParams = {}): CodedText {
  return { code, params, message: fillTemplate(templates[code], params) }
}

/** A coded sentence whose `{reason}` is another coded sentence, kept whole so the app says both in one language. */
export function codedTextWithReason<Code extends string>(templates: Readonly<Record<Code, string>>, code: Code, reason: CodedText, params: CodedParams = {}): CodedText {
  return { ...codedText(templates, code, { ...params, reason: reason.message }), reason }
}

/** Words that came without a code (an older server's English): no catalog has `codes.uncoded`, so they show as they are. */
export function uncodedText(message: string): CodedText {
  return { code: 'uncoded', params: {}, message }
}

/** A coded sentence as the optional fields a loop failure carries beside its English (none for uncoded words). */
export function codeOfFailure(text: CodedText | undefined): { code?: string, params?: CodedParams, reason?: CodedText } {
  if (!text || text.code === 'uncoded') return {}
  return { code: text.code, params: text.params, ...(text.reason && { reason: text.reason }) }
}

/** The English of several coded sentences shown as one paragraph. */
export function joinCodedText(parts: readonly CodedText[]): string {
  return parts.map(part => part.message).join(' ')
}

function isParams(value: unknown): value is CodedParams {
  return !!value && typeof value === 'object' && !Array.isArray(value)
    && Object.values(value).every(item => typeof item === 'string' || typeof item === 'number')
}

/**
 * The code a server error's JSON body carries (`{ message, data: { code, params } }`, as h3 sends `createError`'s
 * `data`), with the body's message as the English; undefined for a body without one (an older server, a proxy's page).
 */
export function codedTextOfBody(body: unknown, depth = 0): CodedText | undefined {
  if (!body || typeof body !== 'object') return undefined
  const { message, data } = body as { message?: unknown, data?: unknown }
  if (typeof message !== 'string' || !data || typeof data !== 'object') return undefined
  const { code, params } = data as { code?: unknown, params?: unknown }
  // a library may wrap the route's error whole in its own (nuxt-auth-utils' passkey routes do): look one level in
  if (code === undefined && depth === 0) return codedTextOfBody(data, 1)
  if (typeof code !== 'string' || !/^[a-z][\w.-]*$/i.test(code) || code.length > 100) return undefined
  return { code, params: isParams(params) ? params : {}, message }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The coded sentence `message` was filled from, found again by matching it against each template of the table;
 * undefined when none matches. For words stored before they carried their code (a tool result in Dexie). When a
 * filled-in reason itself looks like a template, the outer sentence wins: the match whose first fill is shortest.
 */
export function readCodedText<Code extends string>(templates: Readonly<Record<Code, string>>, message: string): CodedText | undefined {
  let best: { text: CodedText, first: number } | undefined
  for (const code of Object.keys(templates) as Code[]) {
    const names: string[] = []
    const pattern = templates[code].split(/\{\s*(\w+)\s*\}/).map((part, index) => {
      if (index % 2 === 0) return escapeRegExp(part)
      names.push(part)
      return '([\\s\\S]*?)'
    }).join('')
    const match = new RegExp(`^${pattern}$`).exec(message)
    const first = match?.[1]?.length ?? 0
    if (match && (!best || first < best.first)) best = { text: { code, params: Object.fromEntries(names.map((name, index) => [name, match[index + 1]!])), message }, first }
  }
  return best?.text
}
