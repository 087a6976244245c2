// The rule that keeps UI text in the catalogs (eslint/no-raw-ui-text.mjs), on for every component and page.
// NOT_YET_CONVERTED lists the components whose text is still English in the template; converting one means taking
// it off this list (docs/decisions/0020-ui-text-in-catalogs.md, "Converting a component").
import noRawUiText from './no-raw-ui-text.mjs'

export const NOT_YET_CONVERTED = []

export default [
  {
    name: 'plugboard/ui-text',
    files: ['app/**/*.vue'],
    ignores: NOT_YET_CONVERTED,
    plugins: { plugboard: { rules: { 'no-raw-ui-text': noRawUiText } } },
    rules: { 'plugboard/no-raw-ui-text': ['error', { ignoreText: ['Plugboard', 'OpenRouter', 'MCP', 'JSON', 'Markdown', 'CSV', 'true', 'false'] }] },
  },
]
