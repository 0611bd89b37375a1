// The client against the embedded simulator (packages/simulator): a full walk through pages, mounted under a prefix.
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator, type RunningSimulator } from '@ledger-sentinel/simulator/server';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';
import { createLedgerClient, type LedgerClient } from './client.js';
import { compareTimestamps } from '@ledger-sentinel/ledger-model/timestamp';

const NOW = 1_700_000_000_000_000_000n;
let running: RunningSimulator | undefined;
let client: LedgerClient | undefined;

afterEach(async () => {
  await client?.close();
  await running?.close();
});

describe('ledger client against the simulator', () => {
  it('walks every transaction in ascending pages of 100 through links.next', async () => {
    const store = new SimulatorStore();
    const start = NOW - 1_000_000_000_000n;
    for (let i = 0; i < 250; i++) {
      store.addTransaction(
        makeSimTransaction(sampleTransactionRow(start + BigInt(i) * 1_000_000_000n, 1000n)),
      );
    }
    running = await startSimulator({
      store,
      config: defaultSimulatorConfig({ now: () => NOW }),
      pathPrefix: '/mirror',
    });
    client = createLedgerClient({ baseUrl: running.url });

    const pages = [];
    for await (const page of client.listTransactions({
      timestamp: { op: 'gte', value: start },
      order: 'asc',
      limit: 100,
    })) {
      pages.push(page);
    }

    const stamps = pages.flatMap((p) => p.records.map((t) => t.consensus_timestamp));
    expect(pages.map((p) => p.records.length)).toEqual([100, 100, 50]);
    expect(pages.flatMap((p) => p.invalid)).toEqual([]);
    expect(new Set(stamps).size).toBe(250);
    expect(stamps.every((s, i) => i === 0 || compareTimestamps(stamps[i - 1] as string, s) < 0)).toBe(true);
  });
});
