// Resolved account ids in the state store (table resolved_accounts), so a restart while the query service is
// down still tails the accounts configured by EVM address or alias that an earlier run had resolved.
import type { StateStore } from '../../state/store.js';

export interface ResolvedAccountsRepo {
  /** lookup text (EVM address or alias) → `0.0.N`. */
  load(): Map<string, string>;
  save(lookup: string, id: string): void;
}

/** Entries kept at most: the lookups of one config are far fewer; old ones are dropped first. */
const MAX_ROWS = 100_000;

export function createResolvedAccountsRepo(store: StateStore): ResolvedAccountsRepo {
  const { db } = store;
  db.exec(`CREATE TABLE IF NOT EXISTS resolved_accounts (
    lookup TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    seq INTEGER NOT NULL
  )`);
  const all = db.prepare<[], { lookup: string; id: string }>('SELECT lookup, id FROM resolved_accounts');
  const upsert = db.prepare<[string, string]>(
    `INSERT INTO resolved_accounts (lookup, id, seq)
     VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM resolved_accounts))
     ON CONFLICT (lookup) DO UPDATE SET id = excluded.id, seq = excluded.seq`,
  );
  const trim = db.prepare<[number]>(
    'DELETE FROM resolved_accounts WHERE seq <= (SELECT MAX(seq) FROM resolved_accounts) - ?',
  );
  return {
    load: () => new Map(all.all().map((row) => [row.lookup, row.id])),
    save(lookup, id) {
      upsert.run(lookup, id);
      trim.run(MAX_ROWS);
    },
  };
}
