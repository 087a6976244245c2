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

  it('gives each file a revision from its content: a changed file is downloaded again, an unchanged one is not', async () => {
    const [before] = await precacheManifest(publicDir({ 'favicon.svg': '<svg/>' }))
    const [same] = await precacheManifest(publicDir({ 'favicon.svg': '<svg/>' }))
    const [changed] = await precacheManifest(publicDir({ 'favicon.svg': '<svg id="new"/>' }))
    expect(before!.revision).toMatch(/^[0-9a-f]{16}$/)
    expect(same!.revision).toBe(before!.revision)
    expect(changed!.revision).not.toBe(before!.revision)
  })
})
