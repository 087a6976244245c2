import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// app/assets/css/main.css leaves the themes of Nuxt UI components the app does not use out of Tailwind's sources,
// so their classes are not in the stylesheet. A component used without its theme would render unstyled: these
// tests read the app's templates and Nuxt UI's own components to catch that.

const root = process.cwd()
const css = readFileSync(resolve(root, 'app/assets/css/main.css'), 'utf8')
const uiComponents = resolve(root, 'node_modules/@nuxt/ui/dist/runtime/components')

/** The theme names (`button`, `select-menu`...) main.css excludes. */
function excludedThemes(): string[] {
  const rule = css.match(/@source not "[^"]*\/ui\/\{([^}]+)\}\.ts";/)
  expect(rule, 'main.css excludes unused Nuxt UI themes').not.toBeNull()
  return rule![1]!.split(',').map(name => name.trim())
}

function filesUnder(folder: string, extensions: string[]): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter(entry => entry.isFile() && extensions.some(extension => entry.name.endsWith(extension)))
    .map(entry => join(entry.parentPath, entry.name))
}

/** Nuxt UI components (`Button`, `SelectMenu`...) the app's templates and code name. */
function componentsTheAppUses(): Set<string> {
  const used = new Set<string>()
  for (const file of [...filesUnder(resolve(root, 'app'), ['.vue', '.ts']), ...filesUnder(resolve(root, 'plugins'), ['.vue', '.ts'])]) {
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(/<(?:Lazy)?U([A-Z][A-Za-z]+)[\s/>]/g)) used.add(match[1]!)
    for (const match of text.matchAll(/resolveComponent\(['"](?:Lazy)?U([A-Z][A-Za-z]+)['"]\)/g)) used.add(match[1]!)
    for (const match of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]#components['"]/g)) {
      for (const name of match[1]!.split(',')) {
        const component = name.trim().match(/^(?:Lazy)?U([A-Z][A-Za-z]+)/)
        if (component) used.add(component[1]!)
      }
    }
  }
  return used
}

/** The components a Nuxt UI component renders itself (its `./X.vue` imports), and theirs. */
function withWhatTheyRender(components: Set<string>): Set<string> {
  const all = new Set(components)
  const queue = [...components]
  while (queue.length) {
    const name = queue.pop()!
    let source: string
    try {
      source = readFileSync(resolve(uiComponents, `${name}.vue`), 'utf8')
    }
    catch {
      continue
    }
    for (const match of source.matchAll(/from "\.\/([A-Za-z]+)\.vue"/g)) {
      if (all.has(match[1]!)) continue
      all.add(match[1]!)
      queue.push(match[1]!)
    }
  }
  return all
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

describe('Nuxt UI themes left out of the stylesheet', () => {
  it('leaves out no theme of a component the app renders, directly or inside another Nuxt UI component', () => {
    const used = withWhatTheyRender(componentsTheAppUses())
    // the scan itself works: components the app is known to render are found
    expect(used).toContain('Button')
    expect(used).toContain('Toast')
    const needed = [...used].map(kebab)
    expect(excludedThemes().filter(theme => needed.includes(theme))).toEqual([])
  })

  it('names only themes Nuxt UI has, so each exclusion takes effect', () => {
    const themes = new Set(readdirSync(resolve(root, '.nuxt/ui')).filter(file => file.endsWith('.ts')).map(file => file.slice(0, -3)))
    expect(themes.size).toBeGreaterThan(40)
    expect(excludedThemes().filter(theme => !themes.has(theme))).toEqual([])
  })
})
