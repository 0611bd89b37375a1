// Backtest: the rules replayed over a historical range of the query service, through the global transaction
// listing in ascending order, matched to the watch list exactly as the global tailer does, and driven through
// the daemon's own pipeline (pipeline/offline/offline-pipeline.ts: enrichment, alert state, routing, the rule
// tick at each record's time). Nothing is stored and nothing is sent: the alerts that would have been sent are
// returned.
import { createCallTraces } from '../../enrich/call-trace.js';
import type { ContractVerification } from '../../enrich/verification.js';
import type { LedgerClient } from '../../ledger/client.js';
import { createTokenFacts } from '../../tokens/token-facts.js';
import { formatTimestamp, parseTimestamp, timestampToMillis } from '@ledger-sentinel/ledger-model/timestamp';
import type { Alert } from '../../rules/alert/alert.js';
import type { RuleSet } from '../../rules/load/compile.js';
import type { Route } from '../../notifiers/schema.js';
import { createOfflinePipeline, type OfflinePipeline } from '../../pipeline/offline/offline-pipeline.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import { recordsOf, watchListOf } from '../../pipeline/offline/records-of.js';

export interface ReplayOptions {
  readonly client: LedgerClient;
  readonly ruleSet: RuleSet;
  readonly accounts: readonly WatchedAccount[];
  /** The config's routes: alerts are routed as the daemon would route them (nothing is sent). */
  readonly routes?: readonly Route[];
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
  const { client } = options;
  const pipeline = createOfflinePipeline({
    ruleSet: options.ruleSet,
    routes: options.routes,
    traces: createCallTraces({ listActions: (id) => client.listActions(id, { order: 'asc', limit: 100 }) }),
    verification: options.verification,
    // Amounts in token units and rules by symbol, as the daemon evaluates them (src/tokens/token-facts.ts).
    tokens: createTokenFacts({ fetch: (id, { signal }) => client.getToken(id, signal ? { signal } : {}) }),
  });
  try {
    return await replayRange(options, pipeline);
  } finally {
    pipeline.close();
  }
}

async function replayRange(options: ReplayOptions, pipeline: OfflinePipeline): Promise<ReplayResult> {
  const watch = watchListOf(options.accounts);
  const alerts: Alert[] = [];
  let transactions = 0;
  let records = 0;
  const timestamp = [
    { op: 'gte' as const, value: formatTimestamp(options.from) },
    { op: 'lte' as const, value: formatTimestamp(options.to) },
  ];
  const query = { timestamp, order: 'asc' as const, limit: 100 };
  for await (const page of options.client.listTransactions(query, { signal: options.signal })) {
    for (const tx of page.records) {
      transactions += 1;
      // The rule tick at the record's time first, so absence windows fire when the daemon's would have.
      alerts.push(...pipeline.tick(timestampToMillis(parseTimestamp(tx.consensus_timestamp))));
      const items = recordsOf(tx, watch);
      records += items.length;
      alerts.push(...(await pipeline.handOver(items, options.signal)));
    }
    const last = page.records.at(-1);
    options.onProgress?.(
      last ? parseTimestamp(last.consensus_timestamp) : options.to,
      transactions,
      alerts.length,
    );
  }
  alerts.push(...pipeline.tick(timestampToMillis(options.to)));
  return { alerts, transactions, records };
}
