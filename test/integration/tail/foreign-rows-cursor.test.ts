// A service (or a proxy in front of it) that mixes another account's rows into an account's pages, some of them
// newer than rows of the account still on the next page: the per-account cursor must move by the account's own
// rows, never by a row that does not belong to the query, or a walk cut short skips the account's next page.
// Against a real loopback server (docs/tailing.md, "Attribution").
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../../src/ledger/client.js';
import { createRequestBudget } from '../../../src/ledger/request-budget.js';
import { formatTimestamp, parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { createMetrics } from '../../../src/observability/metrics.js';
import { openStateStore } from '../../../src/state/store.js';
import { clientTailSource } from '../../../src/tail/source/client-source.js';
import { AccountsConfig, watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { TailConfig } from '../../../src/tail/tail-config.js';
import {
  recordTimestamp,
  type RecordHandler,
  type TailRecord,
} from '../../../src/tail/streams/record-handler.js';
import { createTailer } from '../../../src/tail/tailer.js';

const S = 1_000_000_000n;
const START = 1_700_000_000n * S;
const ACCOUNT = '0.0.100';
const FOREIGN = '0.0.999';
/** The account's rows; the head is far above them, so head − overlap never holds the cursor back. */
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

interface Answer {
  readonly rows: readonly Record<string, unknown>[];
  readonly next: string | null;
}

/** A loopback service: the head probe answers `head()`, an account's listing answers `page(after, n)` (n from 1). */
async function startService(
  head: () => bigint,
  page: (after: bigint, n: number) => Answer,
): Promise<{ server: Server; url: string }> {
  let n = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const gt = url.searchParams.getAll('timestamp').find((v) => v.startsWith('gt:'));
    const after = gt === undefined ? 0n : parseTimestamp(gt.slice(3));
    const answer =
      url.searchParams.get('account.id') === null
        ? { rows: [transaction(head(), '0.0.2')], next: null }
        : page(after, (n += 1));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ transactions: answer.rows, links: { next: answer.next } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function setUp(url: string, tail: Record<string, unknown>) {
  const handed: bigint[] = [];
  const handler: RecordHandler<readonly TailRecord[]> = {
    prepare: async (batch) => batch,
    apply: (batch) => void handed.push(...batch.map((r) => parseTimestamp(recordTimestamp(r)))),
  };
  const metrics = createMetrics();
  client = createLedgerClient({
    baseUrl: url,
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
    config: TailConfig.parse({
      strategy: 'per-account',
      start: formatTimestamp(START),
      overlap: '2s',
      ...tail,
    }),
    metrics,
  });
  return { handed, tailer };
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
    // One row of the account per page, with a link to the next; each page also carries, first, a foreign row
    // newer than every row of the account (as a reversed or shuffled page might have it).
    const service = await startService(
      () => HEAD,
      (after) => {
        const own = OWN.filter((ts) => ts > after).slice(0, 1);
        const last = own[0];
        const next =
          last !== undefined && last < (OWN.at(-1) as bigint)
            ? `/api/v1/transactions?account.id=${ACCOUNT}&limit=1&order=asc&timestamp=gt:${formatTimestamp(last)}`
            : null;
        const foreign = transaction(START + 50n * S + after / S, FOREIGN);
        return { rows: [foreign, ...own.map((ts) => transaction(ts, ACCOUNT))], next };
      },
    );
    server = service.server;
    // One page per poll: every poll is cut short and keeps only what its page read.
    const { handed, tailer } = setUp(service.url, { max_pages_per_poll: 1 });
    const signal = new AbortController().signal;

    for (let round = 0; round < OWN.length; round++) await tailer.round(signal);

    expect(handed).toEqual(OWN);
  });

  it('a foreign row does not move the head: a row of the account visible a poll later is still read', async () => {
    // The service's head is the account's first row until its second one shows up, two polls later; the first
    // page also carries a foreign row far above both, which a head taken from it would settle `safe` past.
    const [first, second] = [START + 1n * S, START + 5n * S];
    let polls = 0;
    const service = await startService(
      () => (polls >= 3 ? second : first),
      (after) => {
        polls += 1;
        const visible = polls >= 3 ? [first, second] : [first];
        const own = visible.filter((ts) => ts > after).map((ts) => transaction(ts, ACCOUNT));
        const foreign = polls === 1 ? [transaction(START + 100n * S, FOREIGN)] : [];
        return { rows: [...foreign, ...own], next: null };
      },
    );
    server = service.server;
    const { handed, tailer } = setUp(service.url, {});
    const signal = new AbortController().signal;

    for (let round = 0; round < 3; round++) await tailer.round(signal);

    expect(handed).toEqual([first, second]);
  });
});
