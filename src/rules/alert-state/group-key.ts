// group_by keys: which values of a matching record make up an alert's identity (its key).
import type { Facts } from '../facts/facts.js';
import { ownValue } from '../../config/labels.js';

export const GROUP_KEY_PATTERN = /^(account|type|result|payer|node|entity_id|labels\.[A-Za-z0-9_.-]+)$/;

export function groupValue(key: string, f: Facts): string {
  if (key === 'account') return f.account.id;
  if (key.startsWith('labels.')) return ownValue(f.account.labels, key.slice('labels.'.length)) ?? '';
  if (key === 'payer') return f.payer() ?? '';
  if (key === 'type') return f.tx?.name ?? '';
  if (key === 'result') return f.tx?.result ?? '';
  if (key === 'node') return f.tx?.node ?? '';
  return f.tx?.entity_id ?? '';
}

/** `group_by: [account]`, the default: one alert per rule and watched account. */
export function groupsByAccount(groupBy: readonly string[]): boolean {
  return groupBy.length === 1 && groupBy[0] === 'account';
}

/** `large-debit{account="0.0.1234"}`: Prometheus-style, stable, unique per rule + group values. */
export function alertKey(ruleId: string, group: Readonly<Record<string, string>>): string {
  return keyOf(ruleId, Object.keys(group), Object.values(group));
}

/** alertKey from parallel key / value lists (the engine's hot path builds no group object for known keys). */
export function keyOf(ruleId: string, keys: readonly string[], values: readonly string[]): string {
  // join() yields one flat string; `+=` would keep a tree of concatenation nodes alive in every stored key.
  const parts = keys.map((k, i) => `${k}=${quote(values[i] ?? '')}`);
  return [ruleId, '{', parts.join(','), '}'].join('');
}

const PLAIN = /^[\w.:@/-]*$/;

function quote(value: string): string {
  return PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
}
