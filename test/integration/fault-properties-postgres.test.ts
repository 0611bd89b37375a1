// The short run of the fault properties on the PostgreSQL state (issue 26): fast-check draws fault plans that add
// table locks — a second connection holding some of the daemon's tables (outbox, cursor, records seen, rule state,
// commit audit, the lease row) under `LOCK TABLE … IN ACCESS EXCLUSIVE MODE` at random moments, for 0.2 s up to three
// lease TTLs — to the faults of the SQLite run (query service, Slack, SMTP, clock steps, pauses of the leader), and
// plays each against two HA replicas on a real PostgreSQL under a supervisor that restarts any that exits
// (test/helpers/faults/pg-fault-world.ts). Each run must deliver every marker exactly once per channel across the
// fenced leader that exits and the replica that takes over, have every process that decides to exit gone within
// the exit bound, log each loss once and never spin, keep the tail moving, and end with one leader
// (docs/reliability.md, "Fault properties").
//
// Replay a failure: FC_SEED=<seed> FC_PATH=<path> npx vitest run test/integration/fault-properties-postgres.test.ts
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_KINDS, POSTGRES_FAULT_KINDS, type FaultKind } from '../helpers/faults/fault-plan.js';
import { checkWorldProperty, seedFromEnv } from '../helpers/faults/fault-property.js';
import { runPgFaultWorld } from '../helpers/faults/pg-fault-world.js';
import { POSTGRES_BIN, POSTGRES_REQUIRED, startPostgres, type PostgresServer } from '../helpers/postgres.js';

/** Table locks, and every kind of the SQLite run: each applies here too (a pause stops the leader). */
const KINDS: readonly FaultKind[] = [...POSTGRES_FAULT_KINDS, ...FAULT_KINDS];

/** A fixed seed keeps `npm test` on the same plans; FC_SEED explores or replays others. */
const DEFAULT_SEED = 10;
const RUNS = 2;

describe.skipIf(!POSTGRES_BIN && !POSTGRES_REQUIRED)(
  'HA replicas on PostgreSQL against a hostile world with table locks (short run)',
  () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgres();
    }, 120_000);
    afterAll(() => server?.destroy());

    it('delivers every marker once per channel, exits within the bound, never spins, keeps the tail moving, ends with one leader', async () => {
      const { seed, path } = seedFromEnv(process.env, DEFAULT_SEED);
      const lines: string[] = [];

      const report = await checkWorldProperty({
        kinds: KINDS,
        numRuns: RUNS,
        seed,
        ...(path === undefined ? {} : { path }),
        runWorld: (plan, ledgerSeed) =>
          runPgFaultWorld(plan, {
            server,
            seed: ledgerSeed,
            markers: 8,
            durationMs: 6_000,
            faultShare: 0.7,
            settleMs: 60_000,
            compiled: true,
          }),
        log: (line) => lines.push(line),
      });
      const message = `${report.failure ?? ''}\nreplay: ${report.reproduce ?? ''}\n${lines.join('\n')}`;
      expect(report.failed, message).toBe(false);
      // A replayed path runs that plan first (fast-check may go on with the runs after it).
      expect(report.runs.length).toBeGreaterThanOrEqual(path === undefined ? RUNS : 1);
    }, 300_000);
  },
);
