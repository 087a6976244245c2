import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, REENCODE_ABOVE_BYTES, formatFileSize } from './attachment-limits'

/** An image ready to store: its bytes, type and size in pixels. */
export interface ResizedImage {
  blob: Blob
  mime: string
  width: number
  height: number
}

/** The size an image of `width` × `height` is stored at: its longest side at most `maxSide`, proportions kept. */
export function fitWithin(width: number, height: number, maxSide = MAX_IMAGE_SIDE): { width: number, height: number } {
  const longest = Math.max(width, height)
  if (longest <= maxSide || longest <= 0) return { width, height }
  const scale = maxSide / longest
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

/**
 * The type an image is re-encoded to: JPEG stays JPEG; PNG and WebP become WebP, which keeps transparency and is
 * far smaller than PNG for photos and screenshots.
 */
export function reencodeTypeOf(mime: string): 'image/jpeg' | 'image/webp' {
  return mime === 'image/jpeg' ? 'image/jpeg' : 'image/webp'
}

/** Qualities tried in turn until the image fits MAX_IMAGE_BYTES; then the image is made smaller. */
const QUALITIES = [0.88, 0.75, 0.6]

/**
 * Resizes an image in the browser so its longest side is at most MAX_IMAGE_SIDE and it takes at most
 * MAX_IMAGE_BYTES. A small image is kept byte for byte; a GIF is kept as it is (its animation) when under the cap.
 * Throws an Error whose message names the file when it cannot be read or made small enough.
 */
export async function resizeImage(file: Blob & { name?: string }, mime: string): Promise<ResizedImage> {
  const name = file.name ?? 'the image'
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  }
  catch {
    throw new Error(`${name} could not be read as an image.`)
  }
  try {
    const { width, height } = bitmap
    const target = fitWithin(width, height)
    const keep = target.width === width && target.height === height && file.size <= REENCODE_ABOVE_BYTES
    if (mime === 'image/gif' || keep) {
      if (file.size > MAX_IMAGE_BYTES) throw new Error(`${name} is ${formatFileSize(file.size)}: a GIF image may have at most ${formatFileSize(MAX_IMAGE_BYTES)}.`)
      return { blob: file, mime, width, height }
    }
    const type = reencodeTypeOf(mime)
    let size = target
    for (let attempt = 0; attempt < 3; attempt++) {
      for (const quality of QUALITIES) {
        const blob = await encode(bitmap, size, type, quality)
        if (blob.size <= MAX_IMAGE_BYTES) return { blob, mime: blob.type || type, ...size }
      }
      size = { width: Math.max(1, Math.round(size.width * 0.7)), height: Math.max(1, Math.round(size.height * 0.7)) }
    }
    throw new Error(`${name} could not be made smaller than ${formatFileSize(MAX_IMAGE_BYTES)}.`)
  }
  finally {
    bitmap.close()
  }
}

async function encode(bitmap: ImageBitmap, size: { width: number, height: number }, type: string, quality: number): Promise<Blob> {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(size.width, size.height)
    draw(canvas.getContext('2d'), bitmap, size, type)
    return canvas.convertToBlob({ type, quality })
  }
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  draw(canvas.getContext('2d'), bitmap, size, type)
  return new Promise<Blob>((resolve, reject) => canvas.toBlob(blob => (blob ? resolve(blob) : reject(new Error('The browser could not encode the image.'))), type, quality))
}

function draw(context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null, bitmap: ImageBitmap, size: { width: number, height: number }, type: string) {
  if (!context) throw new Error('The browser could not resize the image.')
  // JPEG has no transparency: a transparent area would turn black.
  if (type === 'image/jpeg') {
    context.fillStyle = '#fff'
    context.fillRect(0, 0, size.width, size.height)
  }
  context.imageSmoothingQuality = 'high'
  context.drawImage(bitmap, 0, 0, size.width, size.height)
}
