// Bounding ledger-controlled text: alerts keep at most ALERT_TEXT_MAX characters of any rendered text or memo (the
// outbox stores them), and each notifier shows less (notifiers/present.ts).

/** Characters an alert keeps of a rendered template or a memo. */
export const ALERT_TEXT_MAX = 8192;

/** The note a cap leaves; capping capped text again adds to its count. */
const MORE = /… \((\d{1,15}) more characters\)$/;

/**
 * The first `max` characters (UTF-16 units, never half a surrogate pair) and a visible note of how many more there
 * were: a 1 MB memo must not make a 1 MB message. Text capped before (the alert's own cap) keeps its total count.
 */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  const earlier = MORE.exec(text);
  const body = earlier ? text.slice(0, earlier.index) : text;
  if (body.length <= max) return text;
  let cut = max;
  const last = body.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${body.slice(0, cut)}… (${body.length - cut + Number(earlier?.[1] ?? 0)} more characters)`;
}
