// The `balance` member of GET /api/v1/accounts/{id}: the entity's current HBAR balance and its associated token
// balances (token id ascending, at most response.limit.tokenBalance.singleAccount), or with a timestamp filter the newest balance
// snapshot in range (0 when the account has no row in it; the row version's balance when there is no snapshot);
// an account the ledger has no balance for shows 0 at the request time.
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { compareBig } from '../balance-book.js';
import type { Filter } from '../params.js';
import type { RouteRequest } from '../route.js';
import type { SimEntityVersion } from '../store.js';
import { entityText } from '../token-json.js';
import { latestBy, snapshotRange } from './balance-params.js';

export function accountBalance(
  request: RouteRequest,
  id: bigint,
  filters: readonly Filter[],
  version?: SimEntityVersion,
): Record<string, unknown> {
  const book = request.store.balances;
  const sign = 1;
  const tokensJson = (tokens: ReadonlyArray<{ tokenId: bigint; balance: bigint }>) =>
    [...tokens]
      .sort((a, b) => sign * compareBig(a.tokenId, b.tokenId))
      .slice(0, request.config.tokenBalanceLimit.singleAccount)
      .map((t) => ({ token_id: entityText(t.tokenId), balance: t.balance }));
  const hbar = book.hbarOf(id);
  const current = {
    balance: hbar ? hbar.balance : 0n,
    timestamp: hbar
      ? hbar.timestamp === null
        ? null
        : formatTimestamp(hbar.timestamp)
      : formatTimestamp(request.nowNs),
  };
  if (!filters.some((f) => f.key === 'timestamp')) {
    return { ...current, tokens: tokensJson(book.tokensOf(id).filter((t) => t.associated)) };
  }
  const range = snapshotRange(book, filters, request.nowNs);
  if (range === null) {
    // No snapshot in range: the balance of the row version in force, without tokens.
    if (version === undefined) return { ...current, tokens: [] };
    const ts = version.balanceTimestamp;
    return { balance: version.balance, timestamp: ts === null ? null : formatTimestamp(ts), tokens: [] };
  }
  const own = book.snapshotsIn(range.lower, range.upper).filter((s) => s.accountId === id);
  const tokens = [
    ...latestBy(
      own.flatMap((s) => s.tokens),
      (t) => t.tokenId,
    ).values(),
  ];
  return {
    balance: own.at(-1)?.balance ?? 0n,
    timestamp: formatTimestamp(range.upper),
    tokens: tokensJson(tokens),
  };
}
