// The replay ledger (replay-ledger.ts) on HTTP: GET /api/v1/transactions with the filters a global tail sends —
// timestamp (gt, gte, lt, lte, eq), limit, order — answered from pre-built record bytes, with links.next exactly
// as the service builds it (links.ts). Any other filter answers 400, so a client that needs more than a replay can
// give fails loudly instead of reading a wrong answer. GET /_sim/stats reports what was generated and served.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { serializeJson } from './json.js';
import { buildNextLink } from './links.js';
import {
  effectiveLimit,
  effectiveOrder,
  isValidLimit,
  isValidOrder,
  isValidTimestamp,
  parseQuery,
  validateQuery,
  type Filter,
} from './params.js';
import {
  createReplayLedger,
  type ReplayLedger,
  type ReplayLedgerOptions,
  type ReplayRecord,
} from './replay-ledger.js';
import { bufferPageResponse, errorResponse, type RouteResponse } from './response.js';
import { buildTransactionsQuery } from './routes/transactions-query.js';

export interface ReplayServerOptions extends ReplayLedgerOptions {
  readonly host?: string;
  readonly port?: number;
  /** Also generate on a timer, so the work is spread out (ms; default 100; 0 = only on requests). */
  readonly autoAdvanceMs?: number;
}

export interface ReplayServed {
  readonly requests: number;
  readonly pages: number;
  readonly records: number;
  /**
   * Records served for the first time on an ascending page (above every timestamp served so before): what a
   * tail read, re-reads aside.
   */
  readonly firstServed: number;
  /** Newest consensus timestamp served so far, ns (0 before the first record). */
  readonly frontierNs: bigint;
  /**
   * Pages asked from below the oldest retained record once retention has dropped some: the client fell further
   * behind than `retentionMs` and skips what was dropped (a load test's run is void from then on).
   */
  readonly prunedRequests: number;
}

export interface RunningReplayLedger {
  readonly url: string;
  readonly ledger: ReplayLedger;
  served(): ReplayServed;
  close(): Promise<void>;
}

const PATH = '/api/v1/transactions';
const VALIDATORS: ReadonlyMap<string, (filter: Filter) => boolean> = new Map([
  ['limit', isValidLimit],
  ['order', isValidOrder],
  ['timestamp', (f: Filter) => f.op !== 'ne' && isValidTimestamp(f)],
]);

interface Context {
  readonly ledger: ReplayLedger;
  readonly clock: () => number;
  readonly served: { -readonly [K in keyof ReplayServed]: ReplayServed[K] };
}

export async function startReplayLedger(options: ReplayServerOptions = {}): Promise<RunningReplayLedger> {
  const ctx: Context = {
    ledger: createReplayLedger(options),
    clock: options.clock ?? Date.now,
    served: { requests: 0, pages: 0, records: 0, firstServed: 0, frontierNs: 0n, prunedRequests: 0 },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    ctx.served.requests++;
    ctx.ledger.advance();
    let response: RouteResponse;
    try {
      response = route(ctx, req);
    } catch {
      response = errorResponse(500, ['Internal error']);
    }
    send(res, response);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const every = options.autoAdvanceMs ?? 100;
  const timer = every > 0 ? setInterval(() => ctx.ledger.advance(), every).unref() : undefined;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    ledger: ctx.ledger,
    served: () => ({ ...ctx.served }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (timer) clearInterval(timer);
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function route(ctx: Context, req: IncomingMessage): RouteResponse {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (req.method !== 'GET') return errorResponse(404, ['Not found']);
  if (path === '/_sim/stats')
    return { status: 200, body: serializeJson({ ...ctx.ledger.stats(), served: ctx.served }) };
  if (path.replace(/(.)\/$/, '$1').toLowerCase() !== PATH) return errorResponse(404, ['Not found']);
  return transactions(ctx, path, q < 0 ? '' : url.slice(q + 1));
}

function transactions(ctx: Context, path: string, rawQuery: string): RouteResponse {
  const params = parseQuery(rawQuery);
  const pass = validateQuery(params, { validators: VALIDATORS, maxRepeated: 100 });
  if (!pass.ok) return errorResponse(400, pass.messages);
  const query = buildTransactionsQuery(pass.filters);
  if (query.emptyUpfront) return bufferPageResponse('transactions', [], null);
  const order = effectiveOrder(pass.filters, 'desc');
  const limit = effectiveLimit(pass.filters, 25, 100);
  const eq = query.eq;
  const lower = eq !== null && (query.lower === null || eq > query.lower) ? eq : query.lower;
  const oldest = ctx.ledger.oldestNs();
  if (lower !== null && oldest !== undefined && lower < oldest && ctx.ledger.stats().pruned > 0)
    ctx.served.prunedRequests++;
  const page = ctx.ledger.page({
    lower,
    upper: eq !== null && (query.upper === null || eq < query.upper) ? eq : query.upper,
    order,
    limit,
    nowNs: BigInt(ctx.clock()) * 1_000_000n,
  });
  count(ctx.served, page, order);
  const last = page[page.length - 1];
  const next =
    page.length >= limit && last
      ? buildNextLink({ path, params, field: 'timestamp', order, cursor: formatTimestamp(last.ts) })
      : null;
  return bufferPageResponse(
    'transactions',
    page.map((r) => r.bytes),
    next,
  );
}

function count(served: Context['served'], page: readonly ReplayRecord[], order: 'asc' | 'desc'): void {
  served.pages++;
  served.records += page.length;
  // Ascending pages only: a head probe (order=desc) would move the frontier past everything not yet read.
  if (order !== 'asc') return;
  for (const r of page) {
    if (r.ts <= served.frontierNs) continue;
    served.firstServed++;
    served.frontierNs = r.ts;
  }
}

function send(res: ServerResponse, response: RouteResponse): void {
  res.writeHead(response.status, {
    'content-type': 'application/json; charset=utf-8',
    ...(response.status === 200 ? { 'cache-control': 'public, max-age=2' } : {}),
    ...response.headers,
    'content-length':
      typeof response.body === 'string' ? Buffer.byteLength(response.body) : response.body.length,
  });
  res.end(response.body);
}
