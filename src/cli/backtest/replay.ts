// Backtest: the rules replayed over a historical range of the query service, through the global transaction
// listing in ascending order, matched to the watch list exactly as the global tailer does. Nothing is stored
// and nothing is sent: the alerts that would have fired are returned.
import { createCallTraces } from '../../enrich/call-trace.js';
import type { ContractVerification } from '../../enrich/verification.js';
import type { LedgerClient } from '../../ledger/client.js';
import { formatTimestamp, parseTimestamp, timestampToMillis } from '@ledger-sentinel/ledger-model/timestamp';
import type { Alert } from '../../rules/alert.js';
import type { RuleSet } from '../../rules/compile.js';
import { createEngine } from '../../rules/engine.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import { evaluateRecords } from './evaluate-records.js';
import { recordsOf, watchListOf } from './records-of.js';

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
  const watch = watchListOf(options.accounts);
  const sources = { traces, verification: options.verification };
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
      const items = recordsOf(tx, watch);
      records += items.length;
      alerts.push(...(await evaluateRecords(engine, items, sources)));
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
