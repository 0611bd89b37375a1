// What the state-contract suite writes and compares: every module's tables filled through the modules themselves
// (int64 values above 2^53 included), and a dump of every table, row by row, with exact integers.
import { createAckStore } from '../../src/delivery/ack-store.js';
import { createOutbox } from '../../src/delivery/outbox.js';
import { Route } from '../../src/notifiers/schema.js';
import { createSilenceStore } from '../../src/delivery/silence-store.js';
import { testAlert } from './alerts.js';
import { createRuleStateRepo } from '../../src/rules/alert-state/state-repo.js';
import type { StoredGroupState } from '../../src/rules/alert-state/group-state.js';
import { createQuarantine } from '../../src/tail/quarantine/quarantine-store.js';
import { CursorStore } from '../../src/tail/cursor/cursor-store.js';
import type { StateStore } from '../../src/state/store.js';

/** 2^63 - 1 and a nanosecond timestamp: both beyond what a JS number holds exactly. */
export const BIG = 9_223_372_036_854_775_807n;
export const NS = 1_700_000_000_123_456_789n;

export function modules(store: StateStore) {
  const clock = () => 1_700_000_000_000;
  return {
    tail: new CursorStore(store),
    repo: createRuleStateRepo(store),
    outbox: createOutbox(store, clock),
    silences: createSilenceStore(store, clock),
    acks: createAckStore(store, clock),
    quarantine: createQuarantine(store, clock),
  };
}

export type Modules = ReturnType<typeof modules>;

export function group(key: string, n: number): StoredGroupState {
  return { key, ruleId: 'large-debit', n } as unknown as StoredGroupState;
}

/** One pipeline-like step: cursor, seen window, rule state and outbox in one transaction. */
export function step(store: StateStore, m: Modules, n: number): void {
  store.transaction(() => {
    m.tail.advance('0.0.1234', { safe: NS + BigInt(n), read: NS + BigInt(n) + 1n });
    m.tail.markSeen('0.0.1234', NS + BigInt(n));
    m.repo.apply({ upserts: [group(`g/${n % 3}`, n)], deletes: n % 5 === 4 ? ['g/1'] : [] });
    m.outbox.enqueue(testAlert({}, n), ['slack']);
  });
}

/** Every kind of state a daemon keeps, written through the modules. */
export function fillEverything(store: StateStore, m: Modules): void {
  for (let n = 1; n <= 5; n++) step(store, m, n);
  store.transaction(() => m.tail.advance('global', { safe: BIG, read: BIG }));
  m.outbox.markSent([testAlert({}, 1).id], 'slack', 1_700_000_000_500);
  const escalating = [Route.parse({ notify: ['slack'], escalate: [{ after: '10m', notify: ['pager'] }] })];
  store.transaction(() => m.outbox.escalations.onEmit(testAlert({ key: 'esc', resolves: true }), escalating));
  m.silences.add({
    matchers: [{ name: 'rule', op: '=', value: 'large-debit' }],
    startsAt: 1_700_000_000_000,
    endsAt: 1_700_000_360_000,
    createdBy: 'ops',
    comment: 'maintenance',
  });
  m.acks.ack({
    key: 'large-debit/0.0.1234',
    startsAt: testAlert().startsAt,
    resolves: true,
    by: 'ops',
    comment: 'seen',
  });
  m.quarantine.add({
    stream: '0.0.1234',
    source: 'transactions',
    accounts: ['0.0.1234'],
    timestamp: '1700000000.123456789',
    transactionId: null,
    path: 'transactions[0].transfers[0].amount',
    field: 'transfers',
    reason: 'amount is not an integer',
    pageUrl: '/api/v1/transactions?limit=100',
    index: 0,
    raw: '{"amount":1.5}',
  } as never);
}

/** Every table of the main database, rows in key order, integers exact. */
export function dump(store: StateStore): Record<string, unknown[][]> {
  const tables = store.db
    .prepare<[], { name: string }>(
      "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all();
  const out: Record<string, unknown[][]> = {};
  for (const { name } of tables) {
    const width = store.db.prepare(`PRAGMA table_info("${name}")`).all().length;
    const order = Array.from({ length: width }, (_, i) => i + 1).join(', ');
    const stmt = store.db.prepare(`SELECT * FROM "${name}" ORDER BY ${order}`);
    out[name] = stmt.raw(true).safeIntegers(true).all() as unknown[][];
  }
  return out;
}
