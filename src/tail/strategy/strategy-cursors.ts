// Creating cursors for new streams and handing them between the two strategies. Each function is one
// transaction, so a crash during a hand-over leaves the old arrangement intact.
import { type AccountStream } from '../streams/stream-kind.js';
import { GLOBAL_STREAM } from '../streams/kinds/global-transactions/global-transactions.js';
import type { Cursor, CursorStore } from '../cursor/cursor-store.js';

/** Gives every stream without a cursor its start position (a resumed stream keeps its own). */
export function ensureCursors(state: CursorStore, streams: readonly AccountStream[], start: Cursor): void {
  state.transaction(() => {
    for (const s of streams) if (!state.cursor(s.key)) state.advance(s.key, start);
  });
}

/** Per-account → global: the global cursor starts at the oldest covered cursor, so nothing is skipped. */
export function startGlobal(state: CursorStore, streams: readonly AccountStream[]): void {
  state.transaction(() => {
    if (state.cursor(GLOBAL_STREAM)) return;
    let safe: bigint | undefined;
    let read: bigint | undefined;
    for (const s of streams) {
      const c = s.coveredByGlobal ? state.cursor(s.key) : undefined;
      if (!c) continue;
      if (safe === undefined || c.safe < safe) safe = c.safe;
      if (read === undefined || c.read < read) read = c.read;
    }
    if (safe !== undefined && read !== undefined) state.reset(GLOBAL_STREAM, { safe, read });
  });
}

/** Global → per-account: every covered stream is complete through the global cursor. */
export function stopGlobal(state: CursorStore, streams: readonly AccountStream[]): void {
  state.transaction(() => {
    const global = state.cursor(GLOBAL_STREAM);
    if (!global) return;
    for (const s of streams) if (s.coveredByGlobal) state.advance(s.key, global);
    state.reset(GLOBAL_STREAM, undefined);
  });
}
