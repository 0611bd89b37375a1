// Start-up repair: a cursor beyond now + tail.max_clock_skew (left by a record from the future before the
// bound existed, or by a clock that was wrong) would keep its stream reading nothing until that date. It
// restarts where a new stream would, from the head, and says so loudly: records between where the cursor
// really was and the head are not replayed (`ledger-sentinel state reset-cursor --to` replays them).
import type { Logger } from 'pino';
import { timestampToIso } from '@ledger-sentinel/ledger-model/timestamp';
import type { Cursor, CursorStore } from './cursor-store.js';

export interface RepairedCursor {
  readonly stream: string;
  readonly before: Cursor;
  readonly after: Cursor;
}

/** Brings every cursor part beyond `bound` back to `to` (itself at or below bound); returns what it changed. */
export function repairCursors(state: CursorStore, bound: bigint, to: Cursor, log?: Logger): RepairedCursor[] {
  const repaired: RepairedCursor[] = [];
  state.transaction(() => {
    for (const [stream, before] of [...state.all()]) {
      if (before.safe <= bound && before.read <= bound) continue;
      const safe = before.safe > bound ? min(to.safe, before.safe) : before.safe;
      const read = before.read > bound ? max(to.read, safe) : before.read;
      const after = { safe, read: max(read, safe) };
      state.reset(stream, after);
      repaired.push({ stream, before, after });
    }
  });
  for (const r of repaired)
    log?.error(
      {
        stream: r.stream,
        safe: iso(r.before.safe),
        read: iso(r.before.read),
        repairedSafe: iso(r.after.safe),
        repairedRead: iso(r.after.read),
        bound: iso(bound),
      },
      'cursor beyond now + tail.max_clock_skew repaired: it restarts from the head, records since it was poisoned are not replayed',
    );
  return repaired;
}

function iso(ns: bigint): string {
  try {
    return timestampToIso(ns);
  } catch {
    return ns.toString();
  }
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
