// Renders the app's PNG icons (web app manifest, Apple touch icon) from public/favicon.svg in headless Chromium:
// `node scripts/pwa-icons.mjs` after changing the logo, then commit public/icons/. The PNGs are committed so a
// build needs no image library.
import { readFile, writeFile } from 'node:fs/promises'
import { chromium } from '@playwright/test'

const svg = await readFile(new URL('../public/favicon.svg', import.meta.url), 'utf8')
const inner = svg.replace(/^<svg[^>]*>/, '').replace(/<\/svg>\s*$/, '')
const glyph = inner.replace(/<rect[^>]*\/>/, '')
const background = /<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1] ?? '#7c3aed'

/** The logo as it is, rounded corners and all (`purpose: any`). */
const plain = svg
/**
 * Full-bleed background and the glyph inside the central 60 % (`purpose: maskable`): platforms crop these icons to a
 * circle or a squircle, and only the middle 80 % is sure to be seen.
 */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/><g transform="translate(6.4 6.4) scale(0.6)">${glyph}</g></svg>`
/** Apple's touch icon: iOS rounds the corners itself and shows transparency as black. */
const apple = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/><g transform="translate(3.2 3.2) scale(0.8)">${glyph}</g></svg>`

const icons = [
  { file: 'icon-192.png', size: 192, source: plain },
  { file: 'icon-512.png', size: 512, source: plain },
  { file: 'maskable-512.png', size: 512, source: maskable },
  { file: 'apple-touch-icon-180.png', size: 180, source: apple },
]

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] })
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 })
  for (const { file, size, source } of icons) {
    await page.setViewportSize({ width: size, height: size })
    const sized = source.replace('<svg ', `<svg width="${size}" height="${size}" `)
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`)
    const png = await page.locator('svg').screenshot({ omitBackground: true })
    await writeFile(new URL(`../public/icons/${file}`, import.meta.url), png)
    console.log(`public/icons/${file}: ${size}×${size}, ${png.length} bytes`)
  }
}
finally {
  await browser.close()
}
