// Text shaped like a credential is redacted wherever it appears, configured or not: a Telegram bot token
// (`123456789:AA…`, which sits in the Bot API's URL path, so any text quoting a request URL carries it) and
// Slack tokens (`xoxb-…`, `xoxp-…`, `xapp-…`). Used by the log scrubbing and by notifiers' redact().
const CREDENTIAL_SHAPES = [
  /(?<![\d])\d{5,12}:[A-Za-z0-9_-]{30,}/g,
  /\bx(?:ox[abeprs]|app)-[A-Za-z0-9-]{10,}/g,
];

export function redactCredentialShapes(text: string): string {
  let out = text;
  for (const shape of CREDENTIAL_SHAPES) out = out.replace(shape, '[redacted]');
  return out;
}
