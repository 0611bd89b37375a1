// What `ledger-sentinel state` shows and changes: the tailer's cursors in a stopped daemon's state directory.
import type { Cursor, CursorStore } from '../../tail/cursor/cursor-store.js';
import {
  formatTimestamp,
  parseTimestamp,
  timestampFromMillis,
  timestampToIso,
} from '@ledger-sentinel/ledger-model/timestamp';

export interface CursorRow {
  readonly stream: string;
  readonly safe: string;
  readonly read: string;
  readonly safeIso: string;
  readonly readIso: string;
  /** read − now, seconds: negative behind, positive ahead of this host's clock. */
  readonly readFromNowSeconds: number;
  /** Beyond now + max_clock_skew: the daemon repairs it at start (docs/tailing.md). */
  readonly beyondBound: boolean;
}

export function cursorRows(state: CursorStore, nowMs: number, maxClockSkewMs: number): CursorRow[] {
  const now = timestampFromMillis(nowMs);
  const bound = now + BigInt(maxClockSkewMs) * 1_000_000n;
  return [...state.all()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([stream, c]) => ({
      stream,
      safe: wire(c.safe),
      read: wire(c.read),
      safeIso: iso(c.safe),
      readIso: iso(c.read),
      readFromNowSeconds: Number((c.read - now) / 1_000_000n) / 1000,
      beyondBound: c.safe > bound || c.read > bound,
    }));
}

export function formatCursorTable(rows: readonly CursorRow[]): string {
  if (rows.length === 0) return 'no cursors in this state directory (the daemon has not polled yet)\n';
  const width = Math.max(6, ...rows.map((r) => r.stream.length));
  const head = `${'stream'.padEnd(width)}  ${'safe'.padEnd(30)}  ${'read'.padEnd(30)}  read from now`;
  const lines = rows.map((r) => {
    const s = r.readFromNowSeconds;
    const from = s > 0 ? `${s} s AHEAD` : `${-s} s behind`;
    const flag = r.beyondBound ? '  BEYOND now + max_clock_skew' : '';
    return `${r.stream.padEnd(width)}  ${r.safeIso.padEnd(30)}  ${r.readIso.padEnd(30)}  ${from}${flag}`;
  });
  return `${[head, ...lines].join('\n')}\n`;
}

/** `now` or a timestamp like 1700000000.000000000, as ns; an error text when it is neither or in the future. */
export function parseResetTarget(text: string, nowMs: number): bigint | string {
  const now = timestampFromMillis(nowMs);
  if (text === 'now') return now;
  if (!/^\d{1,10}(\.\d{1,9})?$/.test(text))
    return `--to ${JSON.stringify(text)}: expected "now" or a timestamp like 1700000000.000000000`;
  const ts = parseTimestamp(text);
  if (ts > now) return `--to ${text} is in the future (${iso(ts)}); give a time at or before now`;
  return ts;
}

/** Sets the cursors of `streams` to `to` (both parts) in one transaction; returns the old ones. */
export function resetCursors(
  state: CursorStore,
  streams: readonly string[],
  to: bigint,
): Map<string, Cursor> {
  const before = new Map<string, Cursor>();
  state.transaction(() => {
    for (const stream of streams) {
      const old = state.cursor(stream);
      if (old) before.set(stream, old);
      state.reset(stream, { safe: to, read: to });
    }
  });
  return before;
}

function wire(ns: bigint): string {
  return ns < 0n ? ns.toString() : formatTimestamp(ns);
}

function iso(ns: bigint): string {
  try {
    return timestampToIso(ns);
  } catch {
    return `(out of range: ${wire(ns)})`;
  }
}
