// The simulator's living ledger (packages/simulator/src/living-ledger-server.ts) on a clock the test moves by hand:
// record files every 2 s, a 2 s ingestion lag and the late-visibility fault, which holds a share of each
// file's rows back for `delayMs` after the file became visible (docs/ledger-api.md §17).
import { startLivingLedger as startSimulatorLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import type { SimAccount } from '@ledger-sentinel/simulator/traffic-population';

export interface TailLedgerOptions {
  readonly seed: string;
  /** Size of the account population. */
  readonly accounts: number;
  readonly tps: number;
  readonly lateFraction: number;
  readonly delayMs: number;
  /** Simulated start, ms since the epoch. */
  readonly startMs: number;
}

/**
 * Consensus time by which a held-back row can trail the newest visible row: its delay plus one record file
 * (a row of the next file can be visible while one of this file is still held back). The overlap must be
 * at least this.
 */
export const RECORD_FILE_MS = 2_000;

export interface TailLedger {
  readonly url: string;
  readonly accounts: readonly SimAccount[];
  /** Simulated wall clock, ms. */
  now(): number;
  /** Moves time on; the ledger generates what is due. */
  advance(ms: number): void;
  /** Rows the fault held back so far. */
  heldBack(): number;
  /** Requests served. */
  requests(): number;
  close(): Promise<void>;
}

export async function startTailLedger(options: TailLedgerOptions): Promise<TailLedger> {
  let nowMs = options.startMs;
  const running = await startSimulatorLedger({
    seed: options.seed,
    tps: options.tps,
    lagMs: 2_000,
    recordFileMs: RECORD_FILE_MS,
    lateVisibility: { fraction: options.lateFraction, delay_ms: options.delayMs },
    clock: () => nowMs,
    startMs: options.startMs,
    maxCatchUpMs: 3_600_000,
    traffic: { accounts: options.accounts },
  });
  return {
    url: running.url,
    accounts: running.ledger.traffic.population.accounts,
    now: () => nowMs,
    advance(ms: number) {
      nowMs += ms;
      running.ledger.advance();
    },
    heldBack: () => running.ledger.truth.transactions().filter((r) => r.late).length,
    requests: () => running.faultStats().requests,
    close: () => running.close(),
  };
}
