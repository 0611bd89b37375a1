// Secrets never reach logs, errors or metrics (docs/architecture.md). Notifiers build their own error messages from
// status and error codes; this is the second line of defence for anything that still carries text.
import { redactCredentialShapes } from '../observability/credential-shapes.js';

/** Replaces every occurrence of every secret (and its URL-encoded form) and every credential shape (a Telegram bot token, a Slack token) with `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)]))
      out = out.split(form).join('[redacted]');
  }
  return redactCredentialShapes(out);
}
