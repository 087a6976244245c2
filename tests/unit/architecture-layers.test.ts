// ARCHITECTURE.md's Layers table and the linter's layer rules (eslint/layers.mjs → eslint/boundaries.mjs) say the
// same thing: each row's folder and may-import column, word for word, and every row covers files that exist.
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { layers } from '../../eslint/layers.mjs'
import { readWord } from '../../eslint/boundaries.mjs'

function tableRows(): Array<[string, string]> {
  const markdown = readFileSync(new URL('../../ARCHITECTURE.md', import.meta.url), 'utf8')
  const section = markdown.split('\n## Layers\n')[1]!.split('\n## ')[0]!
  return section.split('\n')
    .filter(line => line.startsWith('| ') && !line.startsWith('| folder |'))
    .map((line) => {
      const cells = line.slice(2, -2).split(' | ')
      return [cells[0]!, cells.at(-1)!]
    })
}

describe('the Layers table and the lint rules', () => {
  it('has the same rows, with the same may-import column', () => {
    const fromTable = tableRows().sort(([a], [b]) => a.localeCompare(b))
    const fromRules = layers.map(layer => [layer.folder, layer.mayImport]).sort(([a], [b]) => a!.localeCompare(b!))
    expect(fromTable.length).toBeGreaterThan(30)
    expect(fromRules).toEqual(fromTable)
  })

  it('reads every word of the may-import column', () => {
    for (const layer of layers) {
      for (const word of layer.mayImport.split(', ')) expect(() => readWord(word), `${layer.folder}: ${word}`).not.toThrow()
    }
    expect(() => readWord('app/nowhere')).toThrow()
  })

  it('names folders and files that exist', () => {
    for (const layer of layers) {
      for (const pattern of layer.files) {
        const star = pattern.indexOf('*')
        const fixed = star < 0 ? pattern : pattern.slice(0, pattern.lastIndexOf('/', star))
        expect(existsSync(new URL(`../../${fixed}`, import.meta.url)), `${layer.folder}: ${pattern}`).toBe(true)
      }
    }
  })
})
