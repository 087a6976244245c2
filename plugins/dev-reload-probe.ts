import { defineTool } from '~/utils/chat/tools'

export default defineTool({
  type: 'function',
  function: { name: 'dev_reload_probe', description: 'Rolls a die.', parameters: { type: 'object', properties: { sides: { type: 'integer' } } } },
  ui: { label: 'Dice', category: 'Games' },
}, ({ sides }) => 1 + Math.floor(Math.random() * (sides ?? 6)))
