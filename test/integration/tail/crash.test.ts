// Durability: a child process tails the living ledger into a durable handler and is killed with SIGKILL at
// random points (mid-page, mid-transaction, between polls), then restarted, alternating strategies. Against
// the ground truth, every record is handed over exactly once.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createLedgerClient, type LedgerClient } from '../../../src/ledger/client.js';
import { createRng } from '@ledger-sentinel/simulator/rng';
import { watchedAccounts } from '../../../src/accounts/accounts-config.js';
import { compare, groundTruth, watchEntries } from './harness.js';
import { startTailLedger, type TailLedger } from './living-ledger.js';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const START_MS = 1_700_000_000_000;
const STEPS = 100;
const KILLS = 8;

let ledger: TailLedger | undefined;
let client: LedgerClient | undefined;
let dir: string | undefined;

afterEach(async () => {
  await client?.close();
  await ledger?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Life {
  readonly killed: boolean;
  readonly finished: boolean;
}

/** Runs one child until it is killed at its `killAfter`-th line, or the ledger is drained. */
function live(ledger: TailLedger, args: string[], killAfter: number, clock: { step: number }): Promise<Life> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  let seen = 0;
  let idle = 0;
  let outcome: Life = { killed: false, finished: false };
  lines.on('line', (line) => {
    seen += 1;
    if (line.startsWith('round')) {
      // Time moves only when the child has finished a round: two seconds per round, then a quiet minute.
      if (clock.step < STEPS) ledger.advance(2_000);
      else if (clock.step === STEPS) ledger.advance(60_000);
      clock.step += 1;
      idle = clock.step > STEPS + 1 && line === 'round 0' ? idle + 1 : 0;
      if (idle >= 2 && !child.killed) {
        outcome = { killed: false, finished: true };
        child.kill('SIGKILL');
      }
    }
    if (seen >= killAfter && !child.killed) {
      outcome = { killed: true, finished: false };
      child.kill('SIGKILL');
    }
  });
  return new Promise((resolve) => child.on('exit', () => resolve(outcome)));
}

describe('durability across SIGKILL', () => {
  it('hands every record over exactly once across random kills and restarts', async () => {
    ledger = await startTailLedger({
      seed: 'crash',
      accounts: 60,
      tps: 20,
      lateFraction: 0.05,
      delayMs: 8_000,
      startMs: START_MS,
    });
    const entries = watchEntries(ledger.accounts, 12, 4);
    client = createLedgerClient({ baseUrl: ledger.url, requestsPerSecond: 1e6 });
    dir = mkdtempSync(join(tmpdir(), 'tail-crash-'));
    const rng = createRng('crash-points');
    const clock = { step: 0 };
    let kills = 0;

    for (let life = 0; ; life++) {
      const strategy = life % 2 === 0 ? 'per-account' : 'global';
      const killAfter = kills < KILLS ? rng.between(3, 60) : Number.POSITIVE_INFINITY;
      const outcome = await live(
        ledger,
        [ledger.url, dir, strategy, String(START_MS / 1000), JSON.stringify(entries)],
        killAfter,
        clock,
      );
      if (outcome.killed) kills += 1;
      if (outcome.finished) break;
    }
    const truth = await groundTruth(client, watchedAccounts(entries), BigInt(START_MS) * 1_000_000n);
    const db = new Database(join(dir, 'state.db'), { readonly: true });
    const delivered = (
      db.prepare('SELECT key FROM test_delivered ORDER BY seq').all() as { key: string }[]
    ).map((r) => r.key);
    db.close();

    expect(kills).toBe(KILLS);
    expect(truth.size).toBeGreaterThan(500);
    expect(compare(delivered, truth)).toEqual({ missing: [], duplicated: [], unexpected: [] });
  }, 180_000); // nine child processes, each paying node + tsx start-up
});
