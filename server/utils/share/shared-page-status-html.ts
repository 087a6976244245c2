/** Text for HTML: the five characters that could leave it. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, character => `&#${character.charCodeAt(0)};`)
}

/** A page of one heading and one sentence, with no script and no style sheet: what a dead share link shows. */
export function sharedPageStatusHtml(heading: string, sentence: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(heading)} · Plugboard</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1 style="font-size: 1.4rem">${escapeHtml(heading)}</h1>
<p>${escapeHtml(sentence)}</p>
</body>
</html>
`
}
