// Child process of crash.test.ts: tails the simulator into a durable handler until killed. The handler writes
// each record it is handed into `test_delivered` in the same store, inside the tailer's transaction, and
// announces progress on stdout (synchronous on a pipe) so the parent can kill it at arbitrary points.
// Usage: node --conditions=source --import tsx crash-child.ts <simulator url> <state dir> <strategy> <start> <accounts JSON>
import { writeSync } from 'node:fs';
import { createLedgerClient } from '../../../src/ledger/client.js';
import { openStateStore } from '../../../src/state/store.js';
import { clientTailSource } from '../../../src/tail/source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { TailConfig } from '../../../src/tail/tail-config.js';
import type { RecordHandler, TailRecord } from '../../../src/tail/streams/record-handler.js';
import { createTailer } from '../../../src/tail/tailer.js';
import { recordKey } from './harness.js';

const [url = '', dir = '', strategy = 'per-account', start = '0', accounts = '[]'] = process.argv.slice(2);
// The daemon's default (state.sqlite.synchronous: normal): the tailer's page commits must survive SIGKILL.
const store = openStateStore({ dir, replayableSync: 'normal' });
store.db.exec('CREATE TABLE IF NOT EXISTS test_delivered (seq INTEGER PRIMARY KEY, key TEXT NOT NULL)');
const insert = store.db.prepare('INSERT INTO test_delivered (key) VALUES (?)');
const say = (line: string) => writeSync(1, `${line}\n`);

const handler: RecordHandler<readonly TailRecord[]> = {
  // Real I/O happens here in the daemon; a turn of the event loop is enough to open the window.
  prepare: (batch) => new Promise((resolve) => setImmediate(() => resolve(batch))),
  apply: (batch) => {
    for (const r of batch) insert.run(recordKey(r));
    say(`applied ${batch.length}`);
  },
};

const client = createLedgerClient({ baseUrl: url, requestsPerSecond: 1e6 });
const tailer = createTailer({
  store,
  source: clientTailSource(client),
  handler,
  accounts: watchedAccounts(AccountsConfig.parse(JSON.parse(accounts))),
  config: TailConfig.parse({ strategy, overlap: '10s', start }),
});
const signal = new AbortController().signal;
for (;;) {
  const report = await tailer.round(signal);
  say(`round ${report.delivered}`);
}
