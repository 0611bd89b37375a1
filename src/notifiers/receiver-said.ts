// Text a receiver answered, made fit for an error message, a log line or a terminal: the notifier's secrets
// redacted (a receiver may echo the request), control and bidi characters neutralised, and capped.
import { redact } from './redact.js';
import { shownText } from './neutralize.js';

/** Characters of a receiver's answer shown (the rest is counted). */
export const RECEIVER_SAID_MAX = 300;

export function receiverSaid(text: string, secrets: readonly string[]): string {
  return shownText(redact(text.trim(), secrets), RECEIVER_SAID_MAX);
}
