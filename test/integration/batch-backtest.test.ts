// Atomic batches on the simulated ledger, end to end: the living ledger runs an ATOMICBATCH with two inner
// transactions, each with its own payer and a batch key; `ledger-sentinel backtest` reads them from the query
// service (both shapes of batch_key: 0x-hex on the 0.129 line, a key object on the current one) and a
// `batch: inner` rule fires on the inner record of the watched payer, naming that payer and the batch key.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import type { ServiceVersion } from '@ledger-sentinel/simulator/service-version';
import { startCli } from './cli-harness.js';
import { until } from './daemon-harness.js';

const RULE = `rules:
  - id: batched
    when: { batch: inner }
    severity: warning
    summary: 'inner of batch {{batch_timestamp}} paid by {{batch_payer}}, key {{batch_key_text}}'
    description: '{{why}}'
`;

let sim: RunningLivingLedger | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sim?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  sim = dir = undefined;
});

/** The injected batch and its inner records, once the service serves them all. */
async function batchOn(ledger: RunningLivingLedger) {
  ledger.ledger.inject({ type: 'ATOMICBATCH', payer: '0.0.1003', result: 'SUCCESS', tag: 'batch' });
  ledger.ledger.advance();
  const outer = ledger.ledger.truth.tagged('batch')[0]?.tx;
  if (!outer) throw new Error('the living ledger did not record the injected batch');
  const inner = ledger.ledger.truth
    .transactions({ fromNs: outer.consensusTimestamp, toNs: outer.consensusTimestamp + 10n })
    .map((r) => r.tx)
    .filter((tx) => tx.parentConsensusTimestamp === outer.consensusTimestamp);
  const last = inner.at(-1)?.consensusTimestamp ?? outer.consensusTimestamp;
  await until(async () => {
    const res = await fetch(`${ledger.url}/api/v1/transactions?timestamp=${formatTimestamp(last)}`);
    return ((await res.json()) as { transactions: unknown[] }).transactions.length === 1;
  });
  return { outer, inner, last };
}

describe('atomic batches on the simulated ledger (backtest)', () => {
  it.each<ServiceVersion>(['0.129', 'current'])(
    '%s line: an inner record of the watched payer alerts with its payer and the batch key',
    async (serviceVersion) => {
      sim = await startLivingLedger({
        seed: `batch-${serviceVersion}`,
        tps: 5,
        lagMs: 50,
        autoAdvanceMs: 100,
        serviceVersion,
      });
      const { outer, inner, last } = await batchOn(sim);
      const first = inner[0];
      expect(inner).toHaveLength(2);
      const stored = (first?.json as { batch_key?: unknown } | undefined)?.batch_key;
      if (!first || typeof stored !== 'string') throw new Error('the inner record has no batch key');
      const payer = `0.0.${first.payer}`;
      const key = stored.slice(2);
      expect(key.slice(0, 4)).toBe('1220'); // an ED25519 key, read back as "ED25519 <32 bytes>"
      dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-batch-'));
      mkdirSync(join(dir, 'rules'));
      writeFileSync(
        join(dir, 'config.yaml'),
        `ledger: { base_url: ${sim.url} }\naccounts:\n  - { id: ${payer}, name: batch-payer }\nrules: { paths: [rules/*.yaml] }\n`,
      );
      writeFileSync(join(dir, 'rules', 'batched.yaml'), RULE);
      const range = ['--from', formatTimestamp(outer.consensusTimestamp), '--to', formatTimestamp(last)];

      const run = startCli(['backtest', '--config', 'config.yaml', ...range, '--json'], { cwd: dir });
      const code = await run.done;

      expect(code, run.stderr()).toBe(0);
      const doc = JSON.parse(run.stdout()) as {
        alerts: { ruleId: string; summary: string; description: string; account?: { id: string } }[];
      };
      const batchTime = formatTimestamp(outer.consensusTimestamp);
      // The second inner record may be paid by the same account or credit it: every alert is on an inner one.
      expect(doc.alerts[0]).toMatchObject({
        ruleId: 'batched',
        account: { id: payer },
        summary: `inner of batch ${batchTime} paid by ${payer}, key ED25519 ${key.slice(4)}`,
        description: `inner transaction of the atomic batch at ${batchTime}, payer ${payer}, batch key ED25519 ${key.slice(4)}`,
      });
    },
  );
});
