import { afterEach, describe, expect, it } from 'vitest';
import { parsePageText } from '../ledger/page.js';
import { defaultSimulatorConfig } from '@ledger-sentinel/simulator/config';
import { sampleTransactionRow } from '@ledger-sentinel/simulator/sample-rows';
import { startSimulator, type RunningSimulator } from '@ledger-sentinel/simulator/server';
import { keyObject, shapeTransaction, type ServiceVersion } from '@ledger-sentinel/simulator/service-version';
import { SimulatorStore } from '@ledger-sentinel/simulator/store';
import { makeSimTransaction } from '@ledger-sentinel/simulator/transaction-json';

const NOW = 1_700_000_000_000_000_000n;
const ED25519 = `1220${'ab'.repeat(32)}`;

/** A batch inner transaction (batch_key set) and an ordinary one. */
function store(): SimulatorStore {
  const s = new SimulatorStore();
  const inner = { batchKey: Buffer.from(ED25519, 'hex'), parentConsensusTimestamp: NOW - 3n, nonce: 1 };
  s.addTransaction(makeSimTransaction(sampleTransactionRow(NOW - 2n, 1001n, inner)));
  s.addTransaction(makeSimTransaction(sampleTransactionRow(NOW - 1n, 1002n)));
  return s;
}

let running: RunningSimulator | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function serve(version: ServiceVersion): Promise<string> {
  const config = defaultSimulatorConfig({ now: () => NOW, serviceVersion: version });
  running = await startSimulator({ store: store(), config });
  const res = await fetch(`${running.url}/api/v1/transactions?order=asc`);
  return res.text();
}

describe('service versions', () => {
  it('serves the 0.129 shapes by default: batch_key as 0x-hex, no high_volume', async () => {
    const text = await serve('0.129');

    const [inner, plain] = (JSON.parse(text) as { transactions: Record<string, unknown>[] }).transactions;

    expect(inner?.batch_key).toBe(`0x${ED25519}`);
    expect(inner?.node).toBe('0.0.3');
    expect(plain?.batch_key).toBeNull();
    expect(Object.keys(plain ?? {})).not.toContain('high_volume');
  });

  it('serves the current shapes: a key object, high_volume, null node and duration on batch inner records', async () => {
    const text = await serve('current');

    const [inner, plain] = (JSON.parse(text) as { transactions: Record<string, unknown>[] }).transactions;

    expect(inner?.batch_key).toEqual({ _type: 'ED25519', key: 'ab'.repeat(32) });
    expect(inner?.node).toBeNull();
    expect(inner?.valid_duration_seconds).toBeNull();
    expect(inner?.high_volume).toBe(false);
    expect(plain?.batch_key).toBeNull();
    expect(plain?.node).toBe('0.0.3');
    expect(Object.keys(plain ?? {}).indexOf('high_volume')).toBe(
      Object.keys(plain ?? {}).indexOf('entity_id') + 1,
    );
  });

  it.each(['0.129', 'current'] as const)(
    'the client reads every record of %s, with the same transfers',
    async (v) => {
      const page = parsePageText('transactions', '/api/v1/transactions', await serve(v));

      expect(page.invalid).toEqual([]);
      expect(page.degraded).toEqual([]);
      expect(page.records.map((r) => r.transfers.map((t) => t.amount))).toEqual([
        [2n, 1n, -3n],
        [2n, 1n, -3n],
      ]);
    },
  );

  it.each([
    [`0x${ED25519}`, { _type: 'ED25519', key: 'ab'.repeat(32) }],
    [`0x3a21${'cd'.repeat(33)}`, { _type: 'ECDSA_SECP256K1', key: 'cd'.repeat(33) }],
    ['0x2a05', { _type: 'ProtobufEncoded', key: '2a05' }],
  ])('turns the key %s into its key object', (hex, object) => {
    expect(keyObject(hex)).toEqual(object);
  });

  it('leaves a record alone at 0.129', () => {
    const json = { batch_key: '0x12', node: '0.0.3' };

    expect(shapeTransaction(json, '0.129')).toBe(json);
  });
});
