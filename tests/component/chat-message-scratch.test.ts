import { it } from 'vitest'
import { renderMarkdown } from '~/utils/chat/markdown'
import createDOMPurify from 'dompurify'
it('x', () => {
  console.log('OUT', JSON.stringify(renderMarkdown('# Hi\n\nSome **bold**')))
  const p = createDOMPurify(window)
  console.log('SUP', p.isSupported, JSON.stringify(p.sanitize('<h1>x</h1><p>y <script>1</script></p>')))
})
