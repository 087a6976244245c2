import { formatInlineResource } from '#shared/history/inline-resource'
import type { ContentPart, UserMessage } from '#shared/types/chat'
import type { AttachmentRecord, MessageRecord } from '~/db/types'
import { formatFileSize, MAX_INLINE_RESOURCE_CHARS } from './attachment-limits'

/** What a user row is sent with, and the images a text-only model did not get (for the note in the chat). */
export interface AttachmentContent {
  content: UserMessage['content']
  imagesNotSent: string[]
}

/** The note a chat shows when the model does not read images: never a silent drop. */
export function imagesNotSentNote(names: readonly string[]): string {
  return `This model does not read images: ${names.join(', ')} ${names.length === 1 ? 'was' : 'were'} not sent.`
}

/**
 * A user row's content for the model: its text, then each image as an `image_url` part (a `data:` URL) when the
 * model reads images, else a line saying which were left out; documents are named in a line (the model reaches
 * their text through the document search, not inline), except an MCP resource's, whose text follows under its URI.
 * A row without attachments keeps its plain text.
 */
export async function attachmentContent(record: MessageRecord, attachments: readonly AttachmentRecord[], options: { acceptsImages: boolean }): Promise<AttachmentContent> {
  const images = attachments.filter(each => each.kind === 'image')
  const resources = attachments.filter((each): each is AttachmentRecord & { resourceUri: string } => each.kind === 'document' && Boolean(each.resourceUri))
  const documents = attachments.filter(each => each.kind === 'document' && !each.resourceUri)
  const lines = [record.content]
  const imagesNotSent = options.acceptsImages ? [] : images.map(image => image.name)
  if (imagesNotSent.length) lines.push(`[Images attached but not sent, because this model does not read images: ${imagesNotSent.join(', ')}]`)
  if (documents.length) lines.push(`[Documents attached: ${documents.map(each => `${each.name} (${formatFileSize(each.size)})`).join(', ')}]`)
  for (const resource of resources) lines.push(await inlineResource(resource))
  const text = lines.filter(line => line.trim()).join('\n\n')
  if (!options.acceptsImages || images.length === 0) return { content: text, imagesNotSent }
  const parts: ContentPart[] = text ? [{ type: 'text', text }] : []
  for (const image of images) parts.push({ type: 'image_url', image_url: { url: await blobToDataUrl(image.blob, image.mime) } })
  return { content: parts, imagesNotSent }
}

/** An MCP resource's text as the model reads it: under its URI, cut at MAX_INLINE_RESOURCE_CHARS with a note. */
async function inlineResource(resource: AttachmentRecord & { resourceUri: string }): Promise<string> {
  const text = await resource.blob.text()
  const cut = text.length > MAX_INLINE_RESOURCE_CHARS
  const body = cut ? `${text.slice(0, MAX_INLINE_RESOURCE_CHARS)}\n[Cut at ${MAX_INLINE_RESOURCE_CHARS} of ${text.length} characters; search_documents reads the rest.]` : text
  return formatInlineResource(resource.resourceUri, `${resource.name}, ${formatFileSize(resource.size)}`, body)
}

/** A blob as a `data:` URL, read in chunks (a spread of a large array overflows the call stack). */
export async function blobToDataUrl(blob: Blob, mime = blob.type): Promise<string> {
  return `data:${mime || 'application/octet-stream'};base64,${bytesToBase64(new Uint8Array(await blob.arrayBuffer()))}`
}

/** The bytes of base64 text (checked as base64 by the caller). */
export function base64ToBytes(text: string): Uint8Array {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  const chunk = 0x8000
  for (let offset = 0; offset < bytes.length; offset += chunk) binary += String.fromCharCode(...bytes.subarray(offset, offset + chunk))
  return btoa(binary)
}
