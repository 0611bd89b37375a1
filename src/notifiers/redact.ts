// Secrets never reach logs, errors or metrics (docs/architecture.md). Notifiers build their own error messages from
// status and error codes; this is the second line of defence for anything that still carries text.

/**
 * Shapes that are credentials wherever they appear, configured or not: a Telegram bot token (`123456:AA…`, which
 * sits in the Bot API's URL path, so any text that quotes a request URL carries it) and a Slack token
 * (`xoxb-…`, `xapp-…`).
 */
const CREDENTIAL_SHAPES = [/\b\d{5,12}:[A-Za-z0-9_-]{30,}/g, /\bx(?:ox[abeprs]|app)-[A-Za-z0-9-]{10,}/g];

/** Replaces every occurrence of every secret (and its URL-encoded form) and every credential shape with `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)]))
      out = out.split(form).join('[redacted]');
  }
  for (const shape of CREDENTIAL_SHAPES) out = out.replace(shape, '[redacted]');
  return out;
}
