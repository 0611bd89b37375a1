// Telegram's HTML parse mode: text must have `&`, `<` and `>` as entities (Telegram's documented rule), and an
// attribute value `"` too. Ledger-controlled text goes through escapeHtml, so a memo holding `<a href=…>` or
// `<b>` shows as text and links or formats nothing; a stray `<` can no longer make Telegram refuse the message.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ENTITIES[c] ?? c);
}

/** `<a href="url">label</a>` for an http(s) URL; the escaped label alone otherwise. */
export function htmlLink(url: string | undefined, label: string): string {
  if (!url || !URL.canParse(url)) return escapeHtml(label);
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return escapeHtml(label);
  return `<a href="${escapeHtml(parsed.href)}">${escapeHtml(label)}</a>`;
}
