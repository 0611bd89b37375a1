// Escaping for Slack, per text object type. Ledger-controlled text (memos, account names, token symbols) must show
// as text. In `mrkdwn` (sections, fields, context, the notification text): no <!channel>, <@U123>,
// <https://evil|click>, no @here, no bold/code/strike injected into our layout. In `plain_text` (the header) Slack
// parses nothing, so entities would show as `&gt;`: that text is only kept on one line and capped (plainText).
// The text was neutralised before either (notifiers/present.ts: control, bidi and invisible characters).

const ZWSP = '\u200b';

/**
 * Escapes &, <, > (Slack's control characters) and neutralises mentions and formatting markers: backticks always,
 * `*`, `_`, `~` where they could open or close formatting (not inside a word, so INSUFFICIENT_BALANCE stays intact).
 */
export function escapeMrkdwn(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/@(?=(here|channel|everyone)\b)/gi, `@${ZWSP}`)
    .replace(/`|(?<![\p{L}\p{N}])[*_~]|[*_~](?![\p{L}\p{N}])/gu, (c) => `${ZWSP}${c}${ZWSP}`);
}

/**
 * Text for a `plain_text` object: shown as is by Slack (no entities, no formatting, no mentions), so nothing is
 * escaped. Kept on one line and cut at `max` characters with a visible marker, never inside a surrogate pair.
 */
export function plainText(text: string, max: number, marker = '…'): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ');
  if (line.length <= max) return line;
  const cut = line.slice(0, Math.max(0, max - marker.length)).replace(/[\uD800-\uDBFF]$/, '');
  return cut + marker;
}

/** A URL for `<url|label>`: & escaped, and the delimiters | and > percent-encoded so the link cannot be split. */
export function escapeLinkUrl(url: string): string {
  return url.replace(/&/g, '&amp;').replace(/\|/g, '%7C').replace(/</g, '%3C').replace(/>/g, '%3E');
}

/** Cuts escaped mrkdwn to at most `max` characters with a visible marker, never inside an entity. */
export function truncateEscaped(text: string, max: number, marker = '… (truncated)'): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max - marker.length));
  cut = cut.replace(/&[a-z]*$/, '').replace(/\u200b$/, '');
  return cut + marker;
}
