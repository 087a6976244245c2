/** How a document's text is read: as a PDF's text layer, as HTML turned into readable text, or as plain text. */
export type DocumentKind = 'pdf' | 'html' | 'text'

const TEXT_EXTENSIONS = new Set([
  'txt', 'text', 'md', 'markdown', 'mdx', 'rst', 'adoc', 'org', 'tex', 'log', 'csv', 'tsv', 'json', 'jsonl', 'ndjson',
  'xml', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'env', 'properties', 'sql', 'graphql', 'gql', 'proto',
  'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'vue', 'svelte', 'css', 'scss', 'sass', 'less',
  'py', 'rb', 'php', 'java', 'kt', 'kts', 'scala', 'groovy', 'go', 'rs', 'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh',
  'cs', 'fs', 'swift', 'm', 'mm', 'dart', 'lua', 'pl', 'pm', 'r', 'jl', 'hs', 'ml', 'ex', 'exs', 'erl', 'clj', 'elm',
  'sh', 'bash', 'zsh', 'fish', 'ps1', 'bat', 'cmd', 'dockerfile', 'makefile', 'gradle', 'tf', 'nix', 'zig', 'sol',
  'srt', 'vtt', 'bib', 'diff', 'patch',
])
const HTML_EXTENSIONS = new Set(['html', 'htm', 'xhtml'])
const TEXT_MIME = /^text\/|^application\/(?:json|ld\+json|x-ndjson|xml|javascript|typescript|x-sh|x-yaml|yaml|toml|sql|graphql)\b|\+(?:json|xml)\b/

function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1).toLowerCase()
  const dot = base.lastIndexOf('.')
  return dot >= 0 ? base.slice(dot + 1) : base
}

/**
 * The kind of a file from its name and type, or undefined when its text cannot be read (an image, an archive, a
 * Word file). The name wins over the type: browsers give many code files no type or a wrong one.
 */
export function documentKindOf(name: string, mime: string): DocumentKind | undefined {
  const extension = extensionOf(name)
  const type = mime.toLowerCase().split(';')[0]!.trim()
  if (extension === 'pdf' || type === 'application/pdf') return 'pdf'
  if (HTML_EXTENSIONS.has(extension) || type === 'text/html' || type === 'application/xhtml+xml') return 'html'
  if (TEXT_EXTENSIONS.has(extension) || TEXT_MIME.test(type)) return 'text'
  return undefined
}
