// The short run of the fault properties (issue 14): a few fault plans drawn by fast-check against the real
// daemon (docs/reliability.md, "Fault properties"). The long run is chaos scenario 15 (`npm run chaos`). The same
// plans with PostgreSQL table locks, against HA replicas: fault-properties-postgres.test.ts.
//
// Replay a failure: FC_SEED=<seed> FC_PATH=<path> npx vitest run test/integration/fault-properties.test.ts
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, type FaultKind } from '../helpers/faults/fault-plan.js';
import { checkFaultProperty, seedFromEnv } from '../helpers/faults/fault-property.js';

/** Every fault kind: the daemon has a defence for each (docs/reliability.md, "Fault properties"). */
const SHORT_RUN_KINDS: readonly FaultKind[] = FAULT_KINDS;

/** A fixed seed keeps `npm test` on the same plans; FC_SEED explores or replays others. */
const DEFAULT_SEED = 14;
const RUNS = 2;

describe('the daemon against a hostile world (short run)', () => {
  it('delivers every marker once per channel, keeps clean streams moving, answers /healthz, bounds memory', async () => {
    const { seed, path } = seedFromEnv(process.env, DEFAULT_SEED);
    const lines: string[] = [];

    const report = await checkFaultProperty({
      kinds: SHORT_RUN_KINDS,
      numRuns: RUNS,
      seed,
      ...(path === undefined ? {} : { path }),
      world: { markers: 8, durationMs: 6_000, faultShare: 0.7, settleMs: 40_000 },
      log: (line) => lines.push(line),
    });

    const message = `${report.failure ?? ''}\nreplay: ${report.reproduce ?? ''}\n${lines.join('\n')}`;
    expect(report.failed, message).toBe(false);
    expect(report.runs.length).toBe(path === undefined ? RUNS : 1);
  }, 180_000);
});
