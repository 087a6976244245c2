import type { AttachmentKind } from '~/db/types'

/** Images sent to models as they are (after resizing). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const

const DOCUMENT_TYPES = new Set([
  'text/plain', 'text/markdown', 'text/x-markdown', 'text/csv', 'text/html', 'text/xml', 'application/json',
  'application/pdf', 'application/xml', 'application/javascript', 'text/javascript', 'application/x-yaml', 'text/yaml',
])

/** Extensions of text, Markdown, code and data files: browsers often give them no type, or a vague one. */
const DOCUMENT_EXTENSIONS: Record<string, string> = {
  txt: 'text/plain', md: 'text/markdown', markdown: 'text/markdown', csv: 'text/csv', tsv: 'text/tab-separated-values',
  json: 'application/json', html: 'text/html', htm: 'text/html', pdf: 'application/pdf', xml: 'application/xml',
  yaml: 'text/yaml', yml: 'text/yaml', toml: 'text/plain', ini: 'text/plain', log: 'text/plain',
  js: 'text/javascript', mjs: 'text/javascript', ts: 'text/plain', tsx: 'text/plain', jsx: 'text/plain', vue: 'text/plain',
  py: 'text/plain', rb: 'text/plain', go: 'text/plain', rs: 'text/plain', java: 'text/plain', kt: 'text/plain',
  c: 'text/plain', h: 'text/plain', cpp: 'text/plain', hpp: 'text/plain', cs: 'text/plain', php: 'text/plain',
  swift: 'text/plain', sh: 'text/plain', sql: 'text/plain', css: 'text/plain', scss: 'text/plain',
}

const IMAGE_EXTENSIONS: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' }

/** What the composer accepts, for the file picker (`accept`). */
export const ACCEPTED_FILES = [...IMAGE_TYPES, ...Object.keys({ ...DOCUMENT_EXTENSIONS }).map(extension => `.${extension}`)].join(',')

/** What a file is taken as: its kind and type, or why it is refused (a sentence naming the file). */
export type FileClassification = { kind: AttachmentKind, mime: string } | { refused: string }

/** Images by their type (or extension when the browser gives none); documents by type or extension. */
export function classifyFile(file: { name: string, type: string }): FileClassification {
  const type = file.type.toLowerCase().split(';')[0]!.trim()
  const extension = file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : ''
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return { kind: 'image', mime: type }
  if (!type && IMAGE_EXTENSIONS[extension]) return { kind: 'image', mime: IMAGE_EXTENSIONS[extension] }
  if (type.startsWith('image/')) return { refused: `${file.name} is a ${type.slice(6).toUpperCase()} image: only PNG, JPEG, WebP and GIF images can be sent.` }
  if (DOCUMENT_TYPES.has(type)) return { kind: 'document', mime: type }
  if (DOCUMENT_EXTENSIONS[extension] && (!type || type.startsWith('text/') || type === 'application/octet-stream' || type.includes('script') || type.includes('json') || type.includes('xml'))) {
    return { kind: 'document', mime: type && type !== 'application/octet-stream' ? type : DOCUMENT_EXTENSIONS[extension] }
  }
  if (type.startsWith('text/')) return { kind: 'document', mime: type }
  return { refused: `${file.name} cannot be attached: only images (PNG, JPEG, WebP, GIF) and text, Markdown, code, CSV, JSON, HTML or PDF documents can.` }
}
