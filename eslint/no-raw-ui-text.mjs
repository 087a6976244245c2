// ESLint rule: a component's template shows no text of its own. Words a user reads (text between tags, and the
// values of the attributes that hold UI text: label, title, placeholder, aria-label…) come from the catalogs in
// i18n/locales through `t('key')` / `$t('key')`, so every language gets them. Only strings that reach the page are
// checked: a string handed to a function (`t('key')`, `fieldError('apiKey')`), compared or used as a property name
// passes. Text without letters ("·", "—"), one-word tokens such as URLs and key formats ("sk-or-v1-…") and the names
// in `ignoreText` pass.
// In the script, a `const text = { … }` table (the way components kept their words before the catalogs) is refused
// when a value is a sentence: a string or template literal, or a function returning one; values made with `t()` pass.
// Measured against @intlify/eslint-plugin-vue-i18n's no-raw-text: the same check for our templates in one small
// file, where the plugin added 5.6 MB to node_modules.

/** Attributes whose value is read by the user (or a screen reader). */
const UI_ATTRIBUTES = new Set([
  'label', 'title', 'placeholder', 'aria-label', 'aria-description', 'aria-placeholder', 'aria-roledescription',
  'aria-valuetext', 'alt', 'description', 'help', 'hint', 'note', 'text', 'message', 'empty', 'confirm-label',
])
const HAS_LETTER = /\p{L}/u
/** One token with a digit, slash, colon, @ or underscore: a URL, an address, a key's format, an identifier. */
const TOKEN = /^\S*[\d/:@_]\S*$/u

const kebab = name => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'UI text in templates comes from the i18n catalogs, not raw strings' },
    schema: [{ type: 'object', properties: { ignoreText: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }],
    messages: { raw: 'Raw UI text "{{ text }}": put it in i18n/locales/en.json or i18n/more/en.json (and de, es) and show it with t(\'key\').' },
  },
  create(context) {
    const ignored = new Set(context.options[0]?.ignoreText ?? [])
    const services = context.sourceCode.parserServices
    if (!services?.defineTemplateBodyVisitor) return {}

    const report = (node, text) => {
      const trimmed = text.trim()
      if (!HAS_LETTER.test(trimmed) || TOKEN.test(trimmed) || ignored.has(trimmed)) return
      context.report({ node, messageId: 'raw', data: { text: trimmed.length > 40 ? `${trimmed.slice(0, 40)}…` : trimmed } })
    }
    /**
     * Whether a string is what the expression shows: reached only through `a ? b : c`, `a || b`, `a + b` and template
     * literals. Through anything else (a call's argument such as `t('key')`, a comparison, an object) it is data.
     */
    const shown = (node) => {
      let child = node
      for (let parent = node.parent; parent && parent.type !== 'VExpressionContainer'; child = parent, parent = parent.parent) {
        const passes = (parent.type === 'ConditionalExpression' && parent.test !== child)
          || parent.type === 'LogicalExpression'
          || (parent.type === 'BinaryExpression' && parent.operator === '+')
          || parent.type === 'TemplateLiteral'
          || parent.type === 'ChainExpression'
        if (!passes) return false
      }
      return true
    }
    /** The attribute an expression is the value of, or undefined in `{{ }}`. */
    const attributeOf = (container) => {
      const parent = container.parent
      if (parent?.type !== 'VAttribute' || !parent.directive) return undefined
      const argument = parent.key.argument
      return argument?.type === 'VIdentifier' ? kebab(argument.rawName ?? argument.name) : null
    }
    const inUiPlace = (node) => {
      let container = node.parent
      while (container && container.type !== 'VExpressionContainer') container = container.parent
      if (!container) return false
      const attribute = attributeOf(container)
      return attribute === undefined ? container.parent?.type === 'VElement' : attribute !== null && UI_ATTRIBUTES.has(attribute)
    }

    /** The strings a `text` table's value would show: literals reached without passing through a call. */
    const tableStrings = (node) => {
      switch (node?.type) {
        case 'Literal': return typeof node.value === 'string' ? [node] : []
        case 'TemplateLiteral': return node.quasis.map(quasi => ({ node: quasi, text: quasi.value.cooked ?? quasi.value.raw }))
        case 'ArrowFunctionExpression': return tableStrings(node.body)
        case 'ConditionalExpression': return [...tableStrings(node.consequent), ...tableStrings(node.alternate)]
        case 'LogicalExpression': return [...tableStrings(node.left), ...tableStrings(node.right)]
        case 'BinaryExpression': return node.operator === '+' ? [...tableStrings(node.left), ...tableStrings(node.right)] : []
        case 'TSAsExpression': return tableStrings(node.expression)
        default: return []
      }
    }
    const scriptVisitor = {
      'VariableDeclarator[id.name="text"] > ObjectExpression.init'(node) {
        for (const property of node.properties) {
          if (property.type !== 'Property') continue
          for (const found of tableStrings(property.value)) {
            if (found.type === 'Literal') report(found, found.value)
            else report(found.node, found.text)
          }
        }
      },
    }

    return services.defineTemplateBodyVisitor({
      VText(node) {
        report(node, node.value)
      },
      'VAttribute[directive=false]'(node) {
        if (node.value && UI_ATTRIBUTES.has(kebab(node.key.rawName ?? node.key.name))) report(node.value, node.value.value)
      },
      'VExpressionContainer Literal'(node) {
        if (typeof node.value === 'string' && inUiPlace(node) && shown(node)) report(node, node.value)
      },
      'VExpressionContainer TemplateElement'(node) {
        if (inUiPlace(node) && shown(node.parent)) report(node, node.value.cooked ?? node.value.raw)
      },
    }, scriptVisitor)
  },
}
