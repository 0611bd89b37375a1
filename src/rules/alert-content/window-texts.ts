// The words of an alert transition (pure): why a window fired and what resolved an alert. Single-record rules get
// their "why" straight from explain.ts; these add the window around it.
import type { AlertRecord } from '../alert/alert.js';
import type { CompiledWindow } from '../load/rule-set.js';
import { hbarText } from '../facts/amount-text.js';
import { timestampToIso } from '@ledger-sentinel/ledger-model/timestamp';

/** `1h`, `10m`, `20s` (the rule file's own style). */
export function durationText(ns: bigint): string {
  const s = ns / 1_000_000_000n;
  if (s > 0n && s % 3600n === 0n) return `${s / 3600n}h`;
  if (s > 0n && s % 60n === 0n) return `${s / 60n}m`;
  return `${s}s`;
}

/** The window's total against its threshold: `5 matches in 10m ≥ 5`, `debits of 500 HBAR in 1h ≥ 100 HBAR`. */
export function windowText(w: CompiledWindow, total: bigint, holds: boolean): string {
  const op = holds ? '≥' : '<';
  const dur = durationText(w.durationNs);
  if (w.kind === 'count')
    return `${total} ${total === 1n ? 'match' : 'matches'} in ${dur} ${op} ${w.threshold}`;
  const what = w.kind === 'debit_sum' ? 'debits' : 'credits';
  return `${what} of ${hbarText(total)} in ${dur} ${op} ${hbarText(w.threshold)}`;
}

/** Why a count or sum window fired: its total, and the newest record's own match. */
export function windowWhy(w: CompiledWindow, total: bigint, newest: string): string {
  return newest ? `${windowText(w, total, true)} — newest: ${newest}` : windowText(w, total, true);
}

/** Why an absence fired: nothing matched for the window's duration since the last match (or since watching began). */
export function absenceWhy(w: CompiledWindow, lastSeenNs: bigint | undefined, nowNs: bigint): string {
  const since = lastSeenNs === undefined ? '' : `, last match or start of watching at ${iso(lastSeenNs)}`;
  const quiet = lastSeenNs === undefined ? '' : `${durationText(nowNs - lastSeenNs)} `;
  return `no matching record for ${quiet}≥ ${durationText(w.durationNs)}${since}`;
}

/**
 * What ended an absence: the record that arrived, in words. Its id and time are the alert's trigger record and
 * endsAt, shown beside it, so the phrase stays short enough for a headline.
 */
export function absenceResolution(record: AlertRecord | undefined, match: string): string {
  if (!record) return 'a matching record arrived';
  const because = match ? ` (${match})` : '';
  return `a matching record arrived: ${recordPhrase(record)}${because}`;
}

/** `staking reward of 12.3 HBAR`, `CRYPTOTRANSFER SUCCESS, net -5 HBAR`. */
export function recordPhrase(record: AlertRecord): string {
  const amount = /^-?\d+$/.test(record.amountTinybar ?? '') ? BigInt(record.amountTinybar ?? '0') : 0n;
  if (record.kind === 'reward') return `staking reward of ${hbarText(amount)}`;
  const what = [record.type, record.result].filter(Boolean).join(' ') || 'a transaction';
  return amount === 0n ? what : `${what}, net ${hbarText(amount)}`;
}

/**
 * Why a window's alert ended, in words: `fewer than 2 matches in the last 30s (1)`, `debits in the last 1h fell
 * below 10,000 HBAR (9,999 HBAR)`. When is the alert's endsAt; what fired is its summary.
 */
export function windowResolution(w: CompiledWindow, total: bigint): string {
  const dur = durationText(w.durationNs);
  if (w.kind === 'count') {
    if (w.threshold === 1n) return `no match in the last ${dur}`;
    return `fewer than ${w.threshold} matches in the last ${dur} (${total})`;
  }
  const what = w.kind === 'debit_sum' ? 'debits' : 'credits';
  return `${what} in the last ${dur} fell below ${hbarText(w.threshold)} (${hbarText(total)})`;
}

function iso(ns: bigint): string {
  return timestampToIso(ns);
}
