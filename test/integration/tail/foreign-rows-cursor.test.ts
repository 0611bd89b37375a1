// A service (or a proxy in front of it) that mixes another account's rows into an account's pages, some of them
// newer than rows of the account still on the next page: the per-account cursor must move by the account's own
// rows, never by a row that does not belong to the query, or a walk cut short skips the account's next page.
// Against a real loopback server (docs/tailing.md, "Attribution").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../../src/ledger/client.js';
import { createRequestBudget } from '../../../src/ledger/request-budget.js';
import { formatTimestamp, parseTimestamp } from '../../../src/ledger/timestamp.js';
import { createMetrics } from '../../../src/observability/metrics.js';
import { openStateStore } from '../../../src/state/store.js';
import { clientTailSource } from '../../../src/tail/client-source.js';
import { AccountsConfig, TailConfig, watchedAccounts } from '../../../src/tail/config.js';
import { recordTimestamp, type RecordHandler, type TailRecord } from '../../../src/tail/record-handler.js';
import { createTailer } from '../../../src/tail/tailer.js';

const S = 1_000_000_000n;
const START = 1_700_000_000n * S;
const ACCOUNT = '0.0.100';
const FOREIGN = '0.0.999';
/** The account's rows, one per page; the head is far above them, so head − overlap never holds the cursor back. */
const OWN = [START + 1n * S, START + 2n * S, START + 3n * S];
const HEAD = START + 1_000n * S;

function transaction(ts: bigint, account: string): Record<string, unknown> {
  return {
    charged_tx_fee: 1,
    consensus_timestamp: formatTimestamp(ts),
    name: 'CRYPTOTRANSFER',
    result: 'SUCCESS',
    transaction_id: `0.0.2-${ts / S}-${ts % S}`,
    transfers: [{ account, amount: 1, is_approval: false }],
  };
}

/**
 * One row of the account per page, with a link to the next; each page also carries a foreign row newer than
 * every row of the account, first (as a reversed or shuffled page might have it).
 */
async function startMixingLedger(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const account = url.searchParams.get('account.id');
    const gt = url.searchParams.getAll('timestamp').find((v) => v.startsWith('gt:'));
    const after = gt === undefined ? 0n : parseTimestamp(gt.slice(3));
    let body: unknown;
    if (account === null) body = { transactions: [transaction(HEAD, '0.0.2')], links: { next: null } };
    else {
      const own = OWN.filter((ts) => ts > after).slice(0, 1);
      const last = own[0];
      const more = last !== undefined && last < (OWN.at(-1) as bigint);
      const next = more
        ? `/api/v1/transactions?account.id=${account}&limit=1&order=asc&timestamp=gt:${formatTimestamp(last)}`
        : null;
      const rows = [
        transaction(START + 50n * S + after / S, FOREIGN),
        ...own.map((ts) => transaction(ts, account)),
      ];
      body = { transactions: rows, links: { next } };
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let server: Server | undefined;
let client: LedgerClient | undefined;
afterEach(async () => {
  await client?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('foreign rows in an account page', () => {
  it('a walk cut short resumes after the account’s own last row, not after a newer foreign row', async () => {
    const ledger = await startMixingLedger();
    server = ledger.server;
    const handed: bigint[] = [];
    const handler: RecordHandler<readonly TailRecord[]> = {
      prepare: async (batch) => batch,
      apply: (batch) => void handed.push(...batch.map((r) => parseTimestamp(recordTimestamp(r)))),
    };
    const metrics = createMetrics();
    client = createLedgerClient({
      baseUrl: ledger.url,
      budget: createRequestBudget({ requestsPerSecond: 1000, burst: 100 }),
      timeouts: { bodyMs: 30_000, totalMs: 30_000 },
      retry: { maxAttempts: 1 },
      metrics,
    });
    const tailer = createTailer({
      store: openStateStore({ dir: ':memory:' }),
      source: clientTailSource(client),
      handler,
      accounts: watchedAccounts(AccountsConfig.parse([{ id: ACCOUNT, sources: ['transactions'] }])),
      // One page per poll: every poll is cut short and keeps only what its page read.
      config: TailConfig.parse({
        strategy: 'per-account',
        start: formatTimestamp(START),
        overlap: '2s',
        max_pages_per_poll: 1,
      }),
      metrics,
    });
    const signal = new AbortController().signal;

    for (let round = 0; round < OWN.length; round++) await tailer.round(signal);

    expect(handed).toEqual(OWN);
  });
});
