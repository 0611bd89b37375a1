// Shared pieces of the tail tests: a recording handler, the ground truth read back from the simulator once
// everything is visible, and the exactly-once comparison.
import type { LedgerClient } from '../../../src/ledger/client.js';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { AccountEntry } from '../../../src/accounts/accounts-config.js';
import {
  type RecordHandler,
  type TailRecord,
  recordTimestamp,
} from '../../../src/tail/streams/record-handler.js';
import type { WatchedAccount } from '../../../src/accounts/watched-account.js';
import type { SimAccount } from '@ledger-sentinel/simulator/traffic-population';

export function recordKey(r: TailRecord): string {
  return `${r.source}:${r.account.id}:${recordTimestamp(r)}`;
}

export interface RecordingHandler extends RecordHandler<readonly TailRecord[]> {
  readonly keys: string[];
}

export function recordingHandler(): RecordingHandler {
  const keys: string[] = [];
  return {
    keys,
    prepare: async (batch) => batch,
    apply: (batch) => {
      for (const r of batch) keys.push(recordKey(r));
    },
  };
}

/**
 * Watch-list entries for every `step`-th account of the population: every fourth one with an alias has its
 * rewards read by alias, and the first staked account with an alias outside the list is watched by alias
 * only (rewards, never covered by the global tail).
 */
export function watchEntries(population: readonly SimAccount[], count: number, step = 1): AccountEntry[] {
  const entries: AccountEntry[] = [];
  for (let i = 0; i < count && i * step < population.length; i++) {
    const account = population[i * step] as SimAccount;
    const byAlias = i % 4 === 0 && account.alias !== null;
    entries.push(
      AccountEntry.parse({
        id: `0.0.${account.num}`,
        name: `acct-${i}`,
        priority: i % 3,
        ...(byAlias ? { rewards_alias: account.alias } : {}),
      }),
    );
  }
  const aliasOnly = population.find(
    (a, i) => a.staked && a.alias !== null && (i % step !== 0 || i / step >= count),
  );
  if (aliasOnly) entries.push(AccountEntry.parse({ rewards_alias: aliasOnly.alias, name: 'alias-only' }));
  return entries;
}

/** What a perfect tailer delivers: every matching row after `after`, read when nothing is held back any more. */
export async function groundTruth(
  client: LedgerClient,
  accounts: readonly WatchedAccount[],
  after: bigint,
): Promise<Set<string>> {
  const keys = new Set<string>();
  const timestamp = { op: 'gt' as const, value: formatTimestamp(after) };
  for (const account of accounts) {
    const sources = account.sources ?? ['transactions', 'rewards'];
    if (sources.includes('transactions')) {
      const query = { accountId: account.id, timestamp, order: 'asc' as const, limit: 100 };
      for await (const page of client.listTransactions(query))
        for (const tx of page.records) keys.add(`transactions:${account.id}:${tx.consensus_timestamp}`);
    }
    if (sources.includes('rewards')) {
      const query = { timestamp, order: 'asc' as const, limit: 100 };
      for await (const page of client.listRewards(account.rewardsPath, query))
        for (const r of page.records) keys.add(`rewards:${account.id}:${r.timestamp}`);
    }
  }
  return keys;
}

export interface Comparison {
  readonly missing: string[];
  readonly duplicated: string[];
  readonly unexpected: string[];
}

export function compare(delivered: readonly string[], truth: ReadonlySet<string>): Comparison {
  const counts = new Map<string, number>();
  for (const k of delivered) counts.set(k, (counts.get(k) ?? 0) + 1);
  return {
    missing: [...truth].filter((k) => !counts.has(k)),
    duplicated: [...counts].filter(([, n]) => n > 1).map(([k]) => k),
    unexpected: [...counts.keys()].filter((k) => !truth.has(k)),
  };
}
