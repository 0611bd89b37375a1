// GET /api/v1/tokens/{tokenId} and /api/v1/tokens/{tokenId}/balances (docs/simulator.md, "Tokens and
// balances"): the token's facts (optionally as of a timestamp), and who holds it — current associations or, with
// a timestamp filter, the newest balance snapshot in range — ordered by account id (default desc).
import { formatTimestamp, parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { parseIdOrEvm } from '../account-ref.js';
import { compareBig } from '../balance-book.js';
import { serializeJson } from '../json.js';
import { buildNextLink } from '../links.js';
import { effectiveLimit, effectiveOrder, isValidTimestamp, type Filter } from '../params.js';
import { errorResponse, type RouteResponse } from '../response.js';
import type { Route, RouteRequest } from '../route.js';
import { entityText, tokenInfoJson, type VersionBound } from '../token-json.js';
import {
  BALANCE_VALIDATORS,
  balanceMatcher,
  bigintMatcher,
  latestBy,
  nextRangeEmpty,
  publicKeyFilter,
  snapshotRange,
} from './balance-params.js';
import { firstPass } from './first-pass.js';

const INFO_VALIDATORS: ReadonlyMap<string, (filter: Filter) => boolean> = new Map([
  ['timestamp', (f: Filter) => (f.op === 'eq' || f.op === 'lt' || f.op === 'lte') && isValidTimestamp(f)],
]);
const BALANCES_VALIDATORS: ReadonlyMap<string, (filter: Filter) => boolean> = new Map([
  ...BALANCE_VALIDATORS,
  ['account.id', (f: Filter) => accountId(f.value) !== null],
]);

export const tokenRoute: Route = {
  method: 'GET',
  pattern: '/api/v1/tokens/:id',
  cacheControl: 'public, max-age=5',
  handle: getToken,
};

export const tokenBalancesRoute: Route = {
  method: 'GET',
  pattern: '/api/v1/tokens/:id/balances',
  cacheControl: 'public, max-age=1',
  handle: listTokenBalances,
};

/** An entity id or a long-zero EVM address (0x, or shard.realm. prefixed); anything else is not a token id. */
function accountId(text: string): bigint | null {
  const parsed = parseIdOrEvm(text);
  return parsed.ok && parsed.ref.kind === 'id' ? parsed.ref.id : null;
}

function tokenPath(request: RouteRequest): bigint | RouteResponse {
  const id = accountId(request.params.id ?? '');
  return id === null ? errorResponse(400, ['Invalid parameter: tokenid']) : id;
}

function getToken(request: RouteRequest): RouteResponse {
  const id = tokenPath(request);
  if (typeof id !== 'bigint') return id;
  const pass = firstPass(request, INFO_VALIDATORS);
  if ('status' in pass) return pass;
  // The last timestamp filter is honoured; eq reads as lte.
  const last = pass.filters[pass.filters.length - 1];
  const bound: VersionBound | undefined =
    last === undefined ? undefined : { op: last.op === 'lt' ? 'lt' : 'lte', ns: parseTimestamp(last.value) };
  const token = request.store.balances.getToken(id);
  const body = token === undefined ? undefined : tokenInfoJson(token, bound);
  return body === undefined ? errorResponse(404, ['Not found']) : { status: 200, body: serializeJson(body) };
}

interface HolderRow {
  readonly account: bigint;
  readonly balance: bigint;
  readonly timestamp: bigint;
}

function listTokenBalances(request: RouteRequest): RouteResponse {
  const id = tokenPath(request);
  if (typeof id !== 'bigint') return id;
  const pass = firstPass(request, BALANCES_VALIDATORS);
  if ('status' in pass) return pass;
  const { config, store } = request;
  const book = store.balances;
  const order = effectiveOrder(pass.filters, 'desc');
  const limit = effectiveLimit(pass.filters, config.defaultLimit, config.maxLimit);
  const accountOk = bigintMatcher(
    pass.filters
      .filter((f) => f.key === 'account.id')
      .map((f) => ({ op: f.op, value: accountId(f.value) as bigint })),
  );
  const balanceOk = balanceMatcher(pass.filters);
  const key = publicKeyFilter(pass.filters);
  const keyOk = (a: bigint) => key === undefined || book.publicKeyOf(a) === key;
  let rows: HolderRow[];
  if (pass.filters.some((f) => f.key === 'timestamp')) {
    const range = snapshotRange(book, pass.filters, request.nowNs);
    if (range === null) return page(null, [], null, null);
    const held = book
      .snapshotsIn(range.lower, range.upper)
      .flatMap((s) =>
        s.tokens.filter((t) => t.tokenId === id).map((t) => ({ account: s.accountId, balance: t.balance })),
      );
    rows = [...latestBy(held, (h) => h.account).values()].map((h) => ({ ...h, timestamp: range.upper }));
  } else {
    rows = book
      .holdersOf(id)
      .filter((h) => h.associated)
      .map((h) => ({ account: h.accountId, balance: h.balance, timestamp: h.balanceTimestamp }));
  }
  rows = rows.filter((r) => accountOk(r.account) && balanceOk(r.balance) && keyOk(r.account));
  rows.sort((a, b) => (order === 'asc' ? 1 : -1) * compareBig(a.account, b.account));
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  if (last === undefined) return page(null, [], null, null);
  const next =
    pageRows.length === limit && !nextRangeEmpty(pass.filters, order, last.account, accountId)
      ? buildNextLink({
          path: request.path,
          params: pass.params,
          field: 'account.id',
          order,
          cursor: entityText(last.account),
        })
      : null;
  const decimals = book.getToken(id)?.rows.at(-1)?.decimals ?? null;
  const timestamp = pageRows.reduce((max, r) => (r.timestamp > max ? r.timestamp : max), 0n);
  return page(timestamp, pageRows, decimals, next);
}

function page(
  timestamp: bigint | null,
  rows: readonly HolderRow[],
  decimals: bigint | null,
  next: string | null,
): RouteResponse {
  const body = {
    timestamp: timestamp === null ? null : formatTimestamp(timestamp),
    balances: rows.map((r) => ({ account: entityText(r.account), balance: r.balance, decimals })),
    links: { next },
  };
  return {
    status: 200,
    body: serializeJson(body),
    ...(next === null ? {} : { headers: { link: `<${next}>; rel="next"` } }),
  };
}
