/**
 * What the model reads after the text of a reply that was cut (a reload, a crash, Stop), so that it writes only the
 * rest. Sent as a user turn right after the partial reply, never stored: the user reads one reply, the model's new
 * text appended to the old. A trailing assistant message alone would be read as a prefill only by some providers
 * (Anthropic's models through OpenRouter); others answer it as a new turn or refuse it. A user turn after it reads
 * the same everywhere (docs/decisions/0013-continue-a-cut-reply.md).
 */
export const CONTINUE_INSTRUCTION = 'Your last reply was cut off. Continue it from exactly where it stopped, mid-sentence or mid-word if need be, keeping its language and formatting. Do not repeat anything already written and do not mention the interruption.'

/** True when `messages` asks to continue a cut reply: the instruction right after an assistant message. */
export function isContinueRequest(messages: readonly { role: string, content?: unknown }[]): boolean {
  return messages.length >= 2 && messages.at(-2)!.role === 'assistant'
    && messages.at(-1)!.role === 'user' && messages.at(-1)!.content === CONTINUE_INSTRUCTION
}
