// GET /api/v1/balances (docs/simulator.md, "Tokens and balances"): every account's HBAR balance with its token
// balances, current (entity balance + associated token accounts) or, with a timestamp filter, from the newest
// balance snapshot in range. Ordered by account id (default desc), paged on account.id.
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { parseIdOrEvm } from '../account-ref.js';
import { parseAccountPath } from '../account-ref.js';
import { compareBig } from '../balance-book.js';
import { serializeJson } from '../json.js';
import { buildNextLink } from '../links.js';
import { effectiveLimit, effectiveOrder, type Filter } from '../params.js';
import type { RouteResponse } from '../response.js';
import type { Route, RouteRequest } from '../route.js';
import { entityText } from '../token-json.js';
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

const VALIDATORS: ReadonlyMap<string, (filter: Filter) => boolean> = new Map([
  ...BALANCE_VALIDATORS,
  ['account.id', () => true],
]);

export const balancesRoute: Route = {
  method: 'GET',
  pattern: '/api/v1/balances',
  cacheControl: 'public, max-age=1',
  handle: listBalances,
};

interface BalanceRow {
  readonly account: bigint;
  readonly balance: bigint | null;
  readonly timestamp: bigint | null;
  readonly tokens: ReadonlyArray<{ readonly tokenId: bigint; readonly balance: bigint }>;
}

function listBalances(request: RouteRequest): RouteResponse {
  const pass = firstPass(request, VALIDATORS);
  if ('status' in pass) return pass;
  const accounts = accountMatcher(request, pass.filters);
  if ('status' in accounts) return accounts;
  const { config, store } = request;
  const order = effectiveOrder(pass.filters, 'desc');
  const limit = effectiveLimit(pass.filters, config.defaultLimit, config.maxLimit);
  const balanceOk = balanceMatcher(pass.filters);
  const key = publicKeyFilter(pass.filters);
  const book = store.balances;
  const keyOk = (id: bigint) => key === undefined || book.publicKeyOf(id) === key;
  const hasTs = pass.filters.some((f) => f.key === 'timestamp');
  let rows: BalanceRow[];
  if (hasTs) {
    const range = snapshotRange(book, pass.filters, request.nowNs);
    if (range === null) return page([], null);
    const snaps = book.snapshotsIn(range.lower, range.upper);
    const latest = latestBy(snaps, (s) => s.accountId);
    rows = [...latest.values()].map((s) => {
      const tokenRows = snaps.filter((t) => t.accountId === s.accountId).flatMap((t) => t.tokens);
      const tokens = [...latestBy(tokenRows, (t) => t.tokenId).values()];
      return { account: s.accountId, balance: s.balance, timestamp: range.upper, tokens };
    });
  } else {
    rows = book.hbarAccounts().map((id) => {
      const hbar = book.hbarOf(id);
      const tokens = book.tokensOf(id).filter((t) => t.associated);
      return { account: id, balance: hbar?.balance ?? null, timestamp: hbar?.timestamp ?? null, tokens };
    });
  }
  rows = rows.filter((r) => accounts(r.account) && balanceOk(r.balance ?? 0n) && keyOk(r.account));
  rows.sort((a, b) => (order === 'asc' ? 1 : -1) * compareBig(a.account, b.account));
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  const next =
    last && pageRows.length === limit && !nextRangeEmpty(pass.filters, order, last.account, idText)
      ? buildNextLink({
          path: request.path,
          params: pass.params,
          field: 'account.id',
          order,
          cursor: entityText(last.account),
        })
      : null;
  const perAccount = config.tokenBalanceLimit.multipleAccounts;
  return page(
    pageRows.map((r) => ({ ...r, tokens: sortTokens(r.tokens, order, perAccount) })),
    next,
  );
}

function sortTokens(tokens: BalanceRow['tokens'], order: 'asc' | 'desc', max: number): BalanceRow['tokens'] {
  const sign = order === 'asc' ? 1 : -1;
  return [...tokens].sort((a, b) => sign * compareBig(a.tokenId, b.tokenId)).slice(0, max);
}

function page(rows: readonly BalanceRow[], next: string | null): RouteResponse {
  let max: bigint | null = null;
  for (const r of rows) if (r.timestamp !== null && (max === null || r.timestamp > max)) max = r.timestamp;
  const body = {
    timestamp: rows.length === 0 ? null : formatTimestamp(max ?? 0n),
    balances: rows.map((r) => ({
      account: entityText(r.account),
      balance: r.balance,
      tokens: r.tokens.map((t) => ({ token_id: entityText(t.tokenId), balance: t.balance })),
    })),
    links: { next },
  };
  return {
    status: 200,
    body: serializeJson(body),
    ...(next === null ? {} : { headers: { link: `<${next}>; rel="next"` } }),
  };
}

function invalidAccount(detail?: string): RouteResponse {
  const message = { message: 'Invalid parameter: account.id', ...(detail ? { detail } : {}) };
  return { status: 400, body: serializeJson({ _status: { messages: [message] } }) };
}

/**
 * account.id values: entity ids with any operator, or at most one EVM address or alias (eq only), resolved to
 * its account. A value that resolves to nothing matches nothing.
 */
function accountMatcher(
  request: RouteRequest,
  filters: readonly Filter[],
): ((id: bigint) => boolean) | RouteResponse {
  const conditions: Array<{ op: Filter['op']; value: bigint }> = [];
  let lookups = 0;
  for (const f of filters) {
    if (f.key !== 'account.id') continue;
    const isId = /^(\d{1,10}\.){0,2}\d{1,19}$/.test(f.value) && !/^\d+\.\d+\.\d+\.\d+/.test(f.value);
    const parsed = isId ? parseIdOrEvm(f.value) : null;
    if (parsed?.ok && parsed.ref.kind === 'id') {
      conditions.push({ op: f.op, value: parsed.ref.id });
      continue;
    }
    const evm = /^(0x)?[0-9a-fA-F]{40}$/.test(f.value);
    const alias = !evm && /^[A-Z2-7]+$/.test(f.value) ? parseAccountPath(f.value) : null;
    if (!evm && alias === null) return invalidAccount();
    if (++lookups > 1) return invalidAccount('Only one EVM address or alias is allowed.');
    if (f.op !== 'eq') return invalidAccount('EVM address or alias only supports equals operator');
    conditions.push({ op: 'eq', value: resolve(request, f.value) ?? -1n });
  }
  return bigintMatcher(conditions);
}

function resolve(request: RouteRequest, text: string): bigint | undefined {
  const ref = parseAccountPath(text);
  if (ref === null) return undefined;
  if (ref.kind === 'id') return ref.id;
  const { store } = request;
  const entity =
    ref.kind === 'evm'
      ? store.findByEvmAddress(ref.hex, ref.shard, ref.realm)
      : store.findByAlias(ref.hex, ref.shard, ref.realm);
  return entity?.id;
}

function idText(text: string): bigint | null {
  const parsed = parseIdOrEvm(text);
  return parsed.ok && parsed.ref.kind === 'id' ? parsed.ref.id : null;
}
