// A real HTTP proxy on 127.0.0.1:0 in front of the simulator that serves its transaction pages the way a faulty or
// hostile service might: rows reversed or shuffled within each page, and rows of another account mixed into an
// account's page. Links are passed through untouched (they are relative), so pagination still works.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseJson } from '../../src/ledger/json.js';
import { serializeJson } from '@ledger-sentinel/simulator/json';

export type PageOrder = 'as-is' | 'reverse' | 'shuffle';

export interface ReorderProxyOptions {
  /** The simulator's origin, `http://127.0.0.1:<port>`. */
  readonly upstream: string;
  readonly order: PageOrder;
  /** Rows of this account's listing are mixed into every per-account transaction page of another account. */
  readonly foreignAccount?: string;
  /** Seed of the shuffle (a fixed permutation per page length and seed). */
  readonly seed?: number;
}

export interface ReorderProxy {
  readonly url: string;
  /** Transaction pages rewritten so far. */
  pages(): number;
  /** Foreign rows mixed into account pages so far. */
  foreignRows(): number;
  /** Changes the order of the pages served from now on. */
  setOrder(order: PageOrder): void;
  close(): Promise<void>;
}

interface Page {
  transactions?: unknown[];
  links?: unknown;
}

export async function startReorderProxy(options: ReorderProxyOptions): Promise<ReorderProxy> {
  let pages = 0;
  let foreign = 0;
  let order = options.order;
  const server: Server = createServer((req, res) => {
    void forward(req.url ?? '/').then(
      ({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      },
      () => {
        res.writeHead(502);
        res.end();
      },
    );
  });

  async function forward(path: string): Promise<{ status: number; body: string }> {
    const upstream = await fetch(`${options.upstream}${path}`, { signal: AbortSignal.timeout(10_000) });
    const text = await upstream.text();
    const url = new URL(path, 'http://proxy');
    if (upstream.status !== 200 || url.pathname !== '/api/v1/transactions')
      return { status: upstream.status, body: text };
    const page = parseJson(text) as Page;
    const rows = page.transactions ?? [];
    const account = url.searchParams.get('account.id');
    if (options.foreignAccount && account && account !== options.foreignAccount) {
      const extra = await foreignRows(url, options.foreignAccount, account);
      foreign += extra.length;
      rows.push(...extra);
    }
    pages += 1;
    page.transactions = reorder(rows, order, (options.seed ?? 1) + pages);
    return { status: 200, body: serializeJson(page) };
  }

  /** The same query for the foreign account, minus rows that do involve the queried one. */
  async function foreignRows(url: URL, foreignAccount: string, account: string): Promise<unknown[]> {
    const query = new URL(url);
    query.searchParams.set('account.id', foreignAccount);
    const res = await fetch(`${options.upstream}${query.pathname}${query.search}`, {
      signal: AbortSignal.timeout(10_000),
    });
    if (res.status !== 200) return [];
    const rows = (parseJson(await res.text()) as Page).transactions ?? [];
    return rows.filter((row) => !serializeJson(row).includes(`"${account}"`));
  }

  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pages: () => pages,
    foreignRows: () => foreign,
    setOrder: (next) => void (order = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The rows in the given order: reversed, or a seeded permutation (never the identity for 3 or more rows). */
export function reorder<T>(rows: readonly T[], order: PageOrder, seed: number): T[] {
  if (order === 'as-is') return [...rows];
  if (order === 'reverse') return [...rows].reverse();
  const out = [...rows];
  let state = seed >>> 0 || 1;
  for (let i = out.length - 1; i > 0; i--) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  if (out.length >= 3 && out.every((row, i) => row === rows[i])) out.reverse();
  return out;
}
