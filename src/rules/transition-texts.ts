// The words of an alert transition (pure): why a window fired and what resolved an alert. Single-record rules get
// their "why" straight from explain.ts; these add the window around it.
import type { AlertRecord } from './alert.js';
import type { CompiledWindow } from './compile.js';
import { hbarText } from './why-text.js';
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

/** What resolved an absence: the record that arrived. */
export function absenceResolution(record: AlertRecord | undefined, match: string): string {
  if (!record) return 'a matching record arrived';
  const tx = record.transactionId ? ` ${record.transactionId}` : '';
  const because = match ? ` (${match})` : '';
  return `${recordPhrase(record)}${because} at ${consensusIso(record.consensusTimestamp)}${tx}`;
}

/** `staking reward of 12.3 HBAR`, `CRYPTOTRANSFER SUCCESS, net -5 HBAR`. */
export function recordPhrase(record: AlertRecord): string {
  const amount = /^-?\d+$/.test(record.amountTinybar ?? '') ? BigInt(record.amountTinybar ?? '0') : 0n;
  if (record.kind === 'reward') return `staking reward of ${hbarText(amount)}`;
  const what = [record.type, record.result].filter(Boolean).join(' ') || 'a transaction';
  return amount === 0n ? what : `${what}, net ${hbarText(amount)}`;
}

/** What resolved a window: older matches left it and it fell below its threshold (at a record's time or a tick). */
export function windowResolution(w: CompiledWindow, total: bigint, atNs: bigint): string {
  return `${windowText(w, total, false)} at ${iso(atNs)} (older matches left the window)`;
}

function iso(ns: bigint): string {
  return timestampToIso(ns);
}

function consensusIso(timestamp: string): string {
  const m = /^(\d+)(?:\.(\d{1,9}))?$/.exec(timestamp);
  if (!m) return timestamp;
  return iso(BigInt(m[1] ?? '0') * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0')));
}
