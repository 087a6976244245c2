import { Linter } from 'eslint'
import vueParser from 'vue-eslint-parser'
import { describe, expect, it } from 'vitest'
import noRawUiText from '../../eslint/no-raw-ui-text.mjs'

const linter = new Linter({ configType: 'flat' })
const config = [{
  files: ['**/*.vue'],
  languageOptions: { parser: vueParser, parserOptions: { parser: { ts: '@typescript-eslint/parser' }, ecmaVersion: 2022, sourceType: 'module' } },
  plugins: { plugboard: { rules: { 'no-raw-ui-text': noRawUiText } } },
  rules: { 'plugboard/no-raw-ui-text': ['error', { ignoreText: ['Plugboard'] }] },
}] as Linter.Config[]

/** The raw texts the rule reports in a component with this template. */
function rawTexts(template: string): string[] {
  return linter.verify(`<template>${template}</template>`, config, 'Component.vue')
    .map(message => message.message.match(/Raw UI text "(.*)"/)?.[1] ?? message.message)
}

/** The raw texts the rule reports in a component with this script (and an empty template). */
function rawScriptTexts(script: string): string[] {
  return linter.verify(`<script setup lang="ts">\n${script}\n</script>\n<template><p /></template>`, config, 'Component.vue')
    .map(message => message.message.match(/Raw UI text "(.*)"/)?.[1] ?? message.message)
}

describe('no-raw-ui-text', () => {
  it('refuses text between tags', () => {
    expect(rawTexts('<p>No conversations yet.</p>')).toEqual(['No conversations yet.'])
  })

  it('refuses raw labels, titles, placeholders and accessible names', () => {
    expect(rawTexts('<UButton label="Save" title="Save it" /><input placeholder="Search chats" aria-label="Search">'))
      .toEqual(['Save', 'Save it', 'Search chats', 'Search'])
  })

  it('refuses strings shown through an expression', () => {
    expect(rawTexts(`<p>{{ busy ? 'Working' : '' }}</p><UButton :title="\`Rename \${name}\`" :aria-label="label || 'Untitled'" />`))
      .toEqual(['Working', 'Rename', 'Untitled'])
  })

  it('accepts text from the catalogs', () => {
    expect(rawTexts(`<p>{{ t('threads.empty') }}</p><UButton :label="t(open ? 'a.close' : 'a.open')" :title="$t('b.c', { name })" />`)).toEqual([])
  })

  it('accepts data: keys, comparisons, icons, test ids, URLs and ignored names', () => {
    expect(rawTexts(`<p v-if="mode === 'demo'">{{ fieldError('apiKey') }}</p>
      <UButton icon="i-lucide-x" data-testid="send-button" placeholder="http://localhost:11434/v1" /><h1>Plugboard</h1><span>· — 42</span>`)).toEqual([])
  })

  it('refuses a script\'s `text` table of sentences: strings, and functions that return one', () => {
    expect(rawScriptTexts(`const text = {
  none: 'You have not shared any chat.',
  allow: (origin: string) => \`Allow \${origin} and reload\`,
  offline: (count: number) => count > 0 ? \`Offline · \${count} pending\` : 'Offline',
}`)).toEqual(['You have not shared any chat.', 'Allow', 'and reload', 'Offline ·', 'pending', 'Offline'])
  })

  it('accepts a `text` table made with t(), and other constants of the script', () => {
    expect(rawScriptTexts(`const { t, n } = useI18n()
const text = {
  of: (progress: number, total: number) => t('mcp.progress.of', { progress: n(progress), total: n(total) }),
  untitled: () => t('toolCards.history.untitled'),
}
const appFacing = { declined: (tool: string) => \`The user declined to run \${tool}.\` }
const mode = 'demo'`)).toEqual([])
  })
})
