// The alert key as a receiver's deduplication key (PagerDuty `dedup_key`, Opsgenie `alias`): a pure function of
// the key, so the trigger and the resolve of an alert, and every process that sends them (a restart, a failover),
// name the same incident. The key itself when it fits the receiver's limit, neutralised (deterministic); a longer
// one keeps its start and ends in a hash of the whole key, so two long keys never share an incident.
import { createHash } from 'node:crypto';
import { neutralizeText } from './neutralize.js';

const HASH_CHARS = 16;

export function receiverKey(key: string, max: number): string {
  const shown = neutralizeText(key);
  if (shown.length <= max) return shown;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, HASH_CHARS);
  let head = '';
  for (const char of shown) {
    if (head.length + char.length > max - HASH_CHARS - 1) break;
    head += char;
  }
  return `${head}~${hash}`;
}
