// The living ledger in a process of its own (so its memory and CPU are not the daemon's nor the bench's):
//   node --conditions=source --import tsx bench/lib/sim-process.ts '<json options>'
// Options: seed, tps, lagMs, accounts (traffic population), speed (ledger seconds per wall second), maxTransactions
// (the ledger clock stops where that many slots have been generated), and optionally recordFileMs and retention
// (the living ledger's defaults otherwise). Prints the base URL, serves until SIGTERM.
import { startLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';

interface SimProcessOptions {
  readonly seed: string;
  readonly tps: number;
  readonly lagMs: number;
  readonly accounts: number;
  readonly speed: number;
  readonly maxTransactions: number;
  readonly recordFileMs?: number;
  readonly retention?: { readonly ms?: number; readonly maxTransactions?: number };
}

const options = JSON.parse(process.argv[2] ?? '{}') as SimProcessOptions;
const t0 = Date.now();
const endMs = t0 + (options.maxTransactions / options.tps) * 1000;
const clock = () => Math.min(endMs, t0 + (Date.now() - t0) * options.speed);
const ledger = await startLivingLedger({
  seed: options.seed,
  tps: options.tps,
  lagMs: options.lagMs,
  clock,
  startMs: t0,
  autoAdvanceMs: 100,
  maxCatchUpMs: 600_000,
  traffic: { accounts: options.accounts },
  ...(options.recordFileMs === undefined ? {} : { recordFileMs: options.recordFileMs }),
  ...(options.retention === undefined ? {} : { retention: options.retention }),
});
console.log(JSON.stringify({ url: ledger.url, startMs: t0, endMs }));
process.once('SIGTERM', () => void ledger.close().then(() => process.exit(0)));
