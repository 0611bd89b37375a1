// After the state dir was deleted under a running daemon, its database is still intact behind the open file
// handle. Copying it back (SQLite's online backup) to where it belongs lets the next start resume every cursor and
// deliver what is still pending; when that cannot be done, the pending alerts are named in the log so that
// none is lost silently.
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Logger } from '../observability/logger.js';
import type { StateStore } from './store.js';

/**
 * What the rescue reads of the outbox (delivery/outbox.ts, a room above the store, hands itself in): the
 * deliveries still pending, to name them when the state cannot be copied back.
 */
export interface PendingDeliveries {
  due(now: number, limit: number): readonly { alert: { id: string; ruleId: string }; channel: string }[];
}

/** Bounds the log line listing undelivered alerts. */
const LIST_AT_MOST = 1000;

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Copies the open database back to its path (only where nothing else is now); true when it did. */
async function copyBack(store: StateStore, log: Logger): Promise<boolean> {
  const path = store.path;
  // A file there now belongs to someone else (a new daemon, an operator's restore): never overwrite it.
  if (path === undefined || exists(path)) return false;
  try {
    mkdirSync(dirname(path), { recursive: true });
    await store.db.backup(path);
    return true;
  } catch (err) {
    log.error({ err, path }, 'state store rescue failed');
    return false;
  }
}

/** Rescues the state or reports what it held undelivered; returns a sentence for the exit message. */
export async function rescueState(
  store: StateStore,
  outbox: PendingDeliveries,
  log: Logger,
): Promise<string> {
  const pending = outbox.due(Number.MAX_SAFE_INTEGER, LIST_AT_MOST);
  if (await copyBack(store, log)) {
    log.warn({ path: store.path, pending: pending.length }, 'state store rescued');
    return `the state was copied back to ${store.path}; the next start resumes from it (${pending.length} deliveries pending)`;
  }
  const alerts = pending.map((row) => ({
    alert: row.alert.id,
    rule: row.alert.ruleId,
    channel: row.channel,
  }));
  if (alerts.length > 0) log.error({ alerts }, 'alerts not delivered: the state store is lost');
  return `the state could not be copied back; ${alerts.length} undelivered deliveries are listed in the log`;
}
