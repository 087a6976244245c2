/**
 * The demo model's canned texts. Everything is fixed so that the same prompt always gives the same reply,
 * and every reply says it is scripted, so nobody mistakes it for a model.
 */

/** Appended to every text reply. */
export const DEMO_LABEL = '_Scripted demo model — no AI involved._'

/** The error object the "error" scenario sends mid-stream, in OpenRouter's shape. */
export const DEMO_STREAM_ERROR = { message: 'Demo: simulated provider error mid-stream', code: 502 } as const

export function demoIntroReply(): string {
  return [
    'Hello! This is **Plugboard**, a chat app where plugins register tools that the model can call while it answers.',
    '',
    'You are talking to the offline demo model. It follows a fixed script:',
    '',
    '- ask `what is 12*7` and it calls the `calculate` tool;',
    '- ask `what time is it in Tokyo` and it calls `get_current_time`;',
    '- ask `weather in Paris` or `search my chats for invoices`;',
    '- type `markdown`, `long`, `think` or `error` to see those cases.',
    '',
    'A tool is a plain function that a plugin registers:',
    '',
    '```ts',
    'export default defineTool({',
    '  name: \'calculate\',',
    '  description: \'Evaluate a math expression\',',
    '  parameters: { type: \'object\', properties: { expression: { type: \'string\' } }, required: [\'expression\'] },',
    '  handler: ({ expression }) => evaluate(expression),',
    '})',
    '```',
    '',
    'Try **what is 12\\*7** to watch a tool call run. Add an OpenRouter key in the settings to chat with a real model.',
    '',
    DEMO_LABEL,
  ].join('\n')
}

export function demoMarkdownReply(): string {
  return [
    '## Markdown sampler',
    '',
    'Some *emphasis*, some **strong text**, `inline code` and a [link to OpenRouter](https://openrouter.ai).',
    '',
    '| Tool | Arguments | Example |',
    '| --- | --- | --- |',
    '| `calculate` | `expression` | `12*7` |',
    '| `get_current_time` | `timezone` | `Asia/Tokyo` |',
    '| `get_weather` | `city` | `Paris` |',
    '',
    '1. Numbered item one',
    '2. Numbered item two',
    '   - a nested bullet',
    '3. Numbered item three',
    '',
    '> A quotation, to check block quotes.',
    '',
    '```ts',
    'function greet(name: string): string {',
    '  return `Hello, ${name}!`',
    '}',
    '```',
    '',
    '```bash',
    'npm start',
    '```',
    '',
    'And raw HTML stays text: <script>alert("not run")</script>',
    '',
    DEMO_LABEL,
  ].join('\n')
}

const LONG_SENTENCES = [
  'Plugboard streams every reply token by token, so a long answer appears gradually instead of all at once.',
  'Each tool is a small function with a JSON Schema that describes its arguments.',
  'The model decides when a tool would help, asks for it by name, and waits for the result.',
  'Results flow back into the conversation as tool messages, and the model continues its answer.',
  'Everything is stored in IndexedDB in your browser, so a reload keeps the whole conversation.',
  'Press Stop at any moment and the partial reply is kept exactly as far as it got.',
  'This paragraph exists to make the reply long enough to test streaming, scrolling and stopping.',
  'Nothing here is generated: the demo model repeats a fixed script, one sentence after another.',
]

/** About 2,500 words in sections, always the same. */
export function demoLongReply(): string {
  const sections: string[] = ['# A long scripted reply', '']
  let sentence = 0
  for (let part = 1; part <= 20; part++) {
    sections.push(`## Part ${part}`, '')
    for (let paragraph = 0; paragraph < 2; paragraph++) {
      const lines: string[] = []
      for (let index = 0; index < 4; index++) lines.push(LONG_SENTENCES[sentence++ % LONG_SENTENCES.length]!)
      sections.push(lines.join(' '), '')
    }
  }
  sections.push('That is the end of the long reply.', '', DEMO_LABEL)
  return sections.join('\n')
}

/** Canned "reasoning" for prompts that say think/reason, streamed as reasoning deltas. */
export function demoReasoning(prompt: string): string {
  const quoted = prompt.length > 80 ? `${prompt.slice(0, 77)}...` : prompt
  return [
    `The user wrote: "${quoted}".`,
    'I am the scripted demo model, so this reasoning is canned too.',
    'I look for keywords (numbers with operators, "time in", "weather in", "search my chats for") and for tools named after "call" or "use".',
    'Then I either call an offered tool or answer from my script.',
  ].join(' ')
}

/** "The `calculate` tool is switched off; ..." for tools the prompt needs but the request did not offer. */
export function demoToolsOffReply(toolNames: readonly string[]): string {
  const names = toolNames.map(name => `\`${name}\``)
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  const subject = names.length === 1 ? `The ${list} tool is` : `The ${list} tools are`
  const pronoun = names.length === 1 ? 'it' : 'them'
  return `${subject} switched off; enable ${pronoun} in the tool popover next to the message box and ask again.\n\n${DEMO_LABEL}`
}
