// Text into HTML and data into <script>: whatever a workload, an env axis or an error message says is
// shown as text, never run.

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text) {
  return String(text ?? '').replace(/[&<>"']/g, (character) => ENTITIES[character]);
}

/** JSON safe inside <script type="application/json">: no `</script>`, no `<!--`, no line separators. */
export function jsonForScript(data) {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A script's source safe inline: `</script` cannot end the element early. */
export function scriptForInline(source) {
  return source.replace(/<\/(script)/gi, '<\\/$1');
}
