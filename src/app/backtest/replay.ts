// Backtest: the rules replayed over a historical range of the query service, through the global transaction
// listing in ascending order, matched to the watch list exactly as the global tailer does. Nothing is stored
// and nothing is sent: the alerts that would have fired are returned.
import { createCallTraces } from '../../enrich/call-trace.js';
import type { ContractVerification } from '../../enrich/verification.js';
import { decodeEntityId, formatEntityId } from '../../ledger/entity-id.js';
import type { LedgerClient } from '../../ledger/client.js';
import type { Transaction } from '../../ledger/schema.js';
import { formatTimestamp, parseTimestamp, timestampToMillis } from '../../ledger/timestamp.js';
import type { Alert } from '../../rules/alert.js';
import type { RuleSet } from '../../rules/compile.js';
import { createEngine } from '../../rules/engine.js';
import { matchAccounts } from '../../tail/match-account.js';
import type { TailRecord } from '../../tail/record-handler.js';
import type { WatchedAccount } from '../../tail/watched-account.js';
import { enrichEvent } from '../pipeline.js';

export interface ReplayOptions {
  readonly client: LedgerClient;
  readonly ruleSet: RuleSet;
  readonly accounts: readonly WatchedAccount[];
  readonly verification: ContractVerification;
  /** Inclusive bounds, nanoseconds. */
  readonly from: bigint;
  readonly to: bigint;
  /** After each page: the newest consensus timestamp read and the counts so far. */
  readonly onProgress?: (at: bigint, transactions: number, alerts: number) => void;
  readonly signal?: AbortSignal;
}

export interface ReplayResult {
  readonly alerts: Alert[];
  readonly transactions: number;
  readonly records: number;
}

export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const engine = createEngine(options.ruleSet);
  const { client } = options;
  const traces = createCallTraces({
    listActions: (id) => client.listActions(id, { order: 'asc', limit: 100 }),
  });
  const byId = new Map(options.accounts.map((a) => [a.id, a]));
  const ids = new Set(byId.keys());
  const alerts: Alert[] = [];
  let transactions = 0;
  let records = 0;
  const timestamp = [
    { op: 'gte' as const, value: formatTimestamp(options.from) },
    { op: 'lte' as const, value: formatTimestamp(options.to) },
  ];
  const pages = client.listTransactions({ timestamp, order: 'asc', limit: 100 }, { signal: options.signal });
  for await (const page of pages) {
    for (const tx of page.records) {
      transactions += 1;
      const ts = parseTimestamp(tx.consensus_timestamp);
      alerts.push(...engine.tick(timestampToMillis(ts)));
      for (const item of recordsOf(tx, ids, byId)) {
        records += 1;
        const event = await enrichEvent(engine, item, { traces, verification: options.verification });
        alerts.push(...engine.evaluate(event).alerts);
      }
    }
    const last = page.records.at(-1);
    options.onProgress?.(
      last ? parseTimestamp(last.consensus_timestamp) : options.to,
      transactions,
      alerts.length,
    );
  }
  alerts.push(...engine.tick(timestampToMillis(options.to)));
  return { alerts, transactions, records };
}

/** The tail records a transaction makes for the watch list (transactions, and rewards paid with it). */
function recordsOf(
  tx: Transaction,
  ids: ReadonlySet<string>,
  byId: ReadonlyMap<string, WatchedAccount>,
): TailRecord[] {
  const out: TailRecord[] = [];
  for (const id of matchAccounts(tx, ids)) {
    const account = byId.get(id) as WatchedAccount;
    if ((account.sources ?? ['transactions']).includes('transactions'))
      out.push({ source: 'transactions', record: tx, account });
  }
  for (const reward of tx.staking_reward_transfers) {
    const id =
      typeof reward.account === 'number'
        ? formatEntityId(decodeEntityId(BigInt(reward.account)))
        : reward.account;
    const account = byId.get(id);
    if (!account || !(account.sources ?? ['rewards']).includes('rewards')) continue;
    out.push({
      source: 'rewards',
      account,
      record: { account_id: id, amount: reward.amount, timestamp: tx.consensus_timestamp },
    });
  }
  return out;
}
