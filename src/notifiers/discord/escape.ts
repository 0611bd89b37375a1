// Discord markdown: ledger-controlled text gets the markdown characters backslash-escaped (Discord drops the
// backslash and shows the character), so a memo holding `**x**`, `||spoiler||`, `[click](https://evil)` (no
// link without its `[`),
// `<@123>`, `# heading` or `> quote` shows those characters. Pings are stopped by `allowed_mentions: {parse: []}`
// on the message; escaping `@` and `<` also keeps `@everyone` and `<@id>` from rendering as mentions at all.
const ACTIVE = /[\\*_~`|[\]<@]/g;
const LINE_START = /^(\s*)(#{1,3}|>{1,3}|-#|[-+]|\d+\.)(?=\s)/gm;

export function escapeDiscord(text: string): string {
  return text
    .replace(ACTIVE, (c) => `\\${c}`)
    .replace(LINE_START, (_m, space: string, marker: string) =>
      /^\d/.test(marker) ? `${space}${marker.slice(0, -1)}\\.` : `${space}\\${marker}`,
    );
}

/**
 * Cuts text to at most `max` UTF-16 units (at least as strict as Discord's count), ending in `…`, never inside a
 * surrogate pair and never leaving a dangling escape backslash.
 */
export function capDiscord(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const trailing = /\\+$/.exec(cut)?.[0].length ?? 0;
  if (trailing % 2 === 1) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** An http(s) URL for an embed's `url`, or undefined. */
export function discordUrl(url: string | undefined): string | undefined {
  if (!url || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
}
