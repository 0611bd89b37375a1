// The fake query service of the fault properties: a node:http proxy on 127.0.0.1 in front of the living ledger
// that plays a fault plan on the requests of the faulted streams (per-account requests whose account.id is
// faulted) and passes every other request through untouched, until heal(). Faults: delays before the headers,
// bodies trickled a few bytes at a time, resets mid-body, 429/5xx with any Retry-After, duplicated and reordered
// records, a far-future record, a record dated minutes ahead (inside tail.max_clock_skew), malformed records, and an endless chain of fresh next links.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse, stringify } from 'lossless-json';
import { retryAfterHeader, type QueryFault } from './fault-plan.js';
import {
  duplicate,
  FALLBACK_TEMPLATE,
  futureRecord,
  malformedRecord,
  withPrototypeKeys,
  reorder,
  type JsonRecord,
} from './hostile-records.js';

/** Upstream answers are buffered whole; nothing the simulator sends comes near this. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Endless links remembered (the daemon must stop following long before). */
const MAX_ENDLESS_LINKS = 10_000;

export interface HostileQueryService {
  /** Base URL for the daemon's `ledger.base_url`. */
  readonly url: string;
  /** Faults applied, by kind. */
  stats(): Record<string, number>;
  /** Once the plan has played through, every request passes untouched (an endless chain already started goes on). */
  heal(): void;
  close(): Promise<void>;
}

export interface HostileQueryOptions {
  /** The living ledger's URL. */
  readonly upstream: string;
  readonly plan: readonly QueryFault[];
  /** Accounts whose per-account requests are faulted. */
  readonly faulted: ReadonlySet<string>;
  readonly clock?: () => number;
}

interface Upstream {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

function fetchUpstream(base: URL, path: string): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) req.destroy(new Error(`upstream body over ${MAX_BODY_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers))
          if (typeof v === 'string' && k !== 'content-length' && k !== 'connection') headers[k] = v;
        resolve({ status: res.statusCode ?? 502, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function accountOf(url: URL): string | undefined {
  const value = url.searchParams.get('account.id');
  return value === null ? undefined : value.replace(/^[a-z]+:/, '');
}

/**
 * Descending pages: the listing is read newest first, one record a page, so a walk spans several pages whose
 * order is the reverse of what was asked (and each next page is a request of its own, faulted in turn).
 */
function upstreamPath(url: URL, fault: QueryFault): string {
  if (fault.kind !== 'reorder' || fault.order !== 'descending') return url.pathname + url.search;
  const path = new URL(url.pathname + url.search, 'http://x');
  path.searchParams.set('order', 'desc');
  path.searchParams.set('limit', '1');
  return path.pathname + path.search;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function send(res: ServerResponse, up: Upstream, body: Buffer = up.body): void {
  res.writeHead(up.status, { ...up.headers, 'content-length': String(body.length) }).end(body);
}

function page(body: Buffer): { transactions: unknown[]; links: { next: string | null } } | undefined {
  try {
    const parsed = parse(body.toString('utf8')) as { transactions?: unknown; links?: { next?: unknown } };
    if (!Array.isArray(parsed.transactions)) return undefined;
    return parsed as { transactions: unknown[]; links: { next: string | null } };
  } catch {
    return undefined;
  }
}

// One closure on purpose: the fault cycle, the endless links, the record template and the heal switch are the
// service's shared state, read by every handler below; threading them through free functions buys nothing.
export async function startHostileQueryService(options: HostileQueryOptions): Promise<HostileQueryService> {
  const base = new URL(options.upstream);
  const clock = options.clock ?? Date.now;
  const counts: Record<string, number> = {};
  const endless = new Map<string, unknown[]>();
  const state = {
    healed: false,
    requests: 0,
    endlessSerial: 0,
    template: FALLBACK_TEMPLATE,
  };
  /** Healed once asked to and once every fault of the plan has been played (so each drawn fault is felt). */
  const healed = () => state.healed && state.requests >= options.plan.length;

  /** A fresh next link that looks like ordinary pagination: the same query with a lower upper bound. */
  function freshLink(url: URL, records: unknown[]): string {
    const next = new URL(url.pathname + url.search, base);
    state.endlessSerial += 1;
    const bounds = next.searchParams.getAll('timestamp').filter((t) => !t.startsWith('lt:'));
    next.searchParams.delete('timestamp');
    for (const bound of bounds) next.searchParams.append('timestamp', bound);
    next.searchParams.append('timestamp', `lt:${9_999_999_999 - state.endlessSerial}.000000000`);
    const link = `${next.pathname}${next.search}`;
    if (endless.size >= MAX_ENDLESS_LINKS) endless.delete(endless.keys().next().value as string);
    endless.set(link, records);
    return link;
  }

  function remember(records: unknown[]): void {
    const first = records.find((r): r is JsonRecord => typeof r === 'object' && r !== null);
    if (first) state.template = first;
  }

  async function rewrite(url: URL, res: ServerResponse, fault: QueryFault, account: string): Promise<void> {
    const up = await fetchUpstream(base, upstreamPath(url, fault));
    const body = up.status === 200 ? page(up.body) : undefined;
    if (!body) return send(res, up);
    remember(body.transactions);
    const template = state.template;
    let records = body.transactions;
    if (fault.kind === 'duplicate') records = duplicate(records, fault.copies);
    if (fault.kind === 'reorder' && fault.order !== 'descending')
      records = reorder(records, fault.order, fault.seed);
    if (fault.kind === 'future')
      records = [...records, futureRecord(template, account, clock(), fault.yearsAhead)];
    if (fault.kind === 'near-future')
      records = [...records, futureRecord(template, account, clock() + fault.secondsAhead * 1000, 0)];
    if (fault.kind === 'malformed') records = [...records, malformedRecord(template, account, fault.shape)];
    if (fault.kind === 'proto-keys') records = records.map(withPrototypeKeys);
    const links = fault.kind === 'endless' ? { next: freshLink(url, records) } : body.links;
    send(res, up, Buffer.from(stringify({ ...body, transactions: records, links }) ?? ''));
  }

  async function damage(res: ServerResponse, up: Upstream, fault: QueryFault): Promise<void> {
    if (fault.kind === 'reset') {
      res.writeHead(up.status, { ...up.headers, 'content-length': String(up.body.length) });
      const cut = Math.min(up.body.length - 1, Math.floor(up.body.length * fault.cut));
      res.write(up.body.subarray(0, Math.max(0, cut)), () => res.socket?.resetAndDestroy());
      return;
    }
    if (fault.kind !== 'trickle') return send(res, up);
    res.writeHead(up.status, { ...up.headers, 'content-length': String(up.body.length) });
    let closed = false;
    res.on('close', () => (closed = true));
    for (let at = 0; at < up.body.length && !closed; at += fault.chunkBytes) {
      res.write(up.body.subarray(at, at + fault.chunkBytes));
      await sleep(fault.everyMs);
    }
    if (!closed) res.end();
  }

  async function faulted(url: URL, res: ServerResponse, account: string): Promise<void> {
    const fault = options.plan[state.requests++ % options.plan.length] ?? { kind: 'none' };
    counts[fault.kind] = (counts[fault.kind] ?? 0) + 1;
    switch (fault.kind) {
      case 'none':
        return send(res, await fetchUpstream(base, url.pathname + url.search));
      case 'delay':
        await sleep(fault.ms);
        return send(res, await fetchUpstream(base, url.pathname + url.search));
      case 'status': {
        const header = retryAfterHeader(fault.retryAfter, clock());
        res.writeHead(fault.status, {
          'content-type': 'application/json',
          ...(header === undefined ? {} : { 'retry-after': header }),
        });
        return void res.end(JSON.stringify({ _status: { messages: [{ message: 'Too many requests' }] } }));
      }
      case 'reset':
      case 'trickle':
        return damage(res, await fetchUpstream(base, url.pathname + url.search), fault);
      default:
        return rewrite(url, res, fault, account);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const chained = endless.get(`${url.pathname}${url.search}`);
    if (chained) {
      counts['endless hop'] = (counts['endless hop'] ?? 0) + 1;
      // A chain once started never ends, healed or not: only the daemon can stop following it.
      const next = freshLink(url, chained);
      const body = Buffer.from(stringify({ transactions: chained, links: { next } }) ?? '');
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      return void res.end(body);
    }
    const account = accountOf(url);
    if (!healed() && account !== undefined && options.faulted.has(account)) return faulted(url, res, account);
    const up = await fetchUpstream(base, url.pathname + url.search);
    if (up.status === 200 && url.pathname.endsWith('/transactions'))
      remember(page(up.body)?.transactions ?? []);
    send(res, up);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats: () => ({ ...counts }),
    heal: () => void (state.healed = true),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
