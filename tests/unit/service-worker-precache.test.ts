import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { precacheManifest } from '../../modules/service-worker'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach(dir => rmSync(dir, { recursive: true, force: true })))

/** A built public folder with the given files. */
function publicDir(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-sw-'))
  dirs.push(dir)
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), text)
  }
  return dir
}

describe('the service worker\'s precache list', () => {
  it('lists the build\'s scripts, stylesheets, icons and favicon, and nothing else (no page, no compressed copies, no wasm)', async () => {
    const dir = publicDir({
      '_nuxt/entry.js': 'a', '_nuxt/entry.css': 'b', '_nuxt/entry.js.br': 'c', '_nuxt/entry.js.gz': 'd',
      '_nuxt/quickjs.wasm': 'e', '_nuxt/builds/meta/x.json': '{}', '_nuxt/builds/latest.json': '{}',
      'icons/icon-192.png': 'f', 'favicon.svg': '<svg/>', 'manifest.webmanifest': '{}', 'sw.js': 'g', 'index.html': 'h',
    })
    expect((await precacheManifest(dir)).map(entry => entry.url)).toEqual(['/_nuxt/entry.css', '/_nuxt/entry.js', '/favicon.svg', '/icons/icon-192.png'])
  })

  it('lists the build\'s content-named files without a revision, so the worker may take them from the browser\'s cache', async () => {
    const entries = await precacheManifest(publicDir({
      '_nuxt/B8tgUf78.js': 'a', '_nuxt/entry.BmXXjypF.css': 'b', '_nuxt/pdfjs-CaZzhMZc.js': 'c', '_nuxt/entry.js': 'd',
    }))
    expect(Object.fromEntries(entries.map(entry => [entry.url, entry.revision]))).toEqual({
      '/_nuxt/B8tgUf78.js': null,
      '/_nuxt/entry.BmXXjypF.css': null,
      '/_nuxt/pdfjs-CaZzhMZc.js': null,
      // a name without a hash of its content keeps a revision
      '/_nuxt/entry.js': expect.stringMatching(/^[0-9a-f]{16}$/),
    })
  })

  it('gives each file named the same whatever its content a revision from its content: a changed file is downloaded again, an unchanged one is not', async () => {
    const [before] = await precacheManifest(publicDir({ 'favicon.svg': '<svg/>' }))
    const [same] = await precacheManifest(publicDir({ 'favicon.svg': '<svg/>' }))
    const [changed] = await precacheManifest(publicDir({ 'favicon.svg': '<svg id="new"/>' }))
    expect(before!.revision).toMatch(/^[0-9a-f]{16}$/)
    expect(same!.revision).toBe(before!.revision)
    expect(changed!.revision).not.toBe(before!.revision)
  })
})
