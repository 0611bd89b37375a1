// The fault property: for every fault plan fast-check draws (from the enabled kinds), a run of the hostile world
// holds every invariant. Shared by the short runs in `npm test` (the SQLite world and the PostgreSQL world of
// table locks) and chaos scenario 15; each prints the seed and path of a failure, and FC_SEED=<seed>
// FC_PATH=<path> replays exactly that plan first.
import fc from 'fast-check';
import { describePlan, faultPlan, type FaultKind, type FaultPlan } from './fault-plan.js';
import { runFaultWorld, type FaultWorldOptions, type FaultWorldResult } from './fault-world.js';

/** What any world's run reports: the property only needs the verdict and where to look. */
export interface WorldResult {
  readonly violations: string[];
  /** Faults applied by kind, per service. */
  readonly applied: Record<string, Record<string, number>>;
  /** Where the daemon's output was written. */
  readonly logFile: string;
}

interface PropertySettings {
  readonly kinds: readonly FaultKind[];
  readonly numRuns: number;
  readonly seed: number;
  /** A fast-check path (from a failure report) to replay. */
  readonly path?: string;
  /** One line per run, as it ends. */
  readonly log?: (line: string) => void;
  /** Run all numRuns even after a failure (chaos figures); each failing run is then replayed by its index. */
  readonly collectAll?: boolean;
}

export interface FaultPropertyOptions extends PropertySettings {
  readonly world: Omit<FaultWorldOptions, 'seed'>;
}

export interface WorldPropertyOptions<R extends WorldResult> extends PropertySettings {
  /** Plays one plan; `ledgerSeed` seeds the living ledger, so a replayed plan sees the same traffic. */
  readonly runWorld: (plan: FaultPlan, ledgerSeed: string) => Promise<R>;
}

export interface FaultRun<R extends WorldResult = FaultWorldResult> {
  readonly plan: FaultPlan;
  readonly result: R;
  /** `FC_SEED=… FC_PATH=…` replaying this run's plan. */
  readonly replay: string;
}

export interface FaultPropertyReport<R extends WorldResult = FaultWorldResult> {
  readonly runs: readonly FaultRun<R>[];
  readonly failed: boolean;
  /** The command-line settings that replay the failing plan, e.g. `FC_SEED=42 FC_PATH=3`. */
  readonly reproduce?: string;
  /** The violations of the failing run, the plan and where the daemon's log is. */
  readonly failure?: string;
}

/** Reads FC_SEED / FC_PATH from `env`; without FC_SEED, `fallbackSeed`. */
export function seedFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  fallbackSeed: number,
): { seed: number; path?: string } {
  const seed = env.FC_SEED === undefined || env.FC_SEED === '' ? fallbackSeed : Number(env.FC_SEED);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer like 1234, got "${env.FC_SEED}"`);
  return { seed, ...(env.FC_PATH ? { path: env.FC_PATH } : {}) };
}

/** The property over the SQLite world (fault-world.ts). */
export async function checkFaultProperty(options: FaultPropertyOptions): Promise<FaultPropertyReport> {
  return checkWorldProperty({
    ...options,
    runWorld: (plan, seed) => runFaultWorld(plan, { ...options.world, seed }),
  });
}

/** The property over any world that plays a fault plan (the SQLite one, the PostgreSQL one). */
export async function checkWorldProperty<R extends WorldResult>(
  options: WorldPropertyOptions<R>,
): Promise<FaultPropertyReport<R>> {
  const runs: FaultRun<R>[] = [];
  const property = fc.asyncProperty(faultPlan(options.kinds), async (plan) => {
    const result = await options.runWorld(plan, `faults-${plan.ledgerSeed}`);
    // Without shrinking, run i of a seed is path i (a replayed path keeps its own).
    const replay = `FC_SEED=${options.seed} FC_PATH=${options.path ?? runs.length}`;
    runs.push({ plan, result, replay });
    const verdict = result.violations.length === 0 ? 'holds' : result.violations.join('; ');
    options.log?.(`run ${runs.length} (${replay}): ${describePlan(plan) || 'no faults drawn'} → ${verdict}`);
    if (result.violations.length > 0 && !options.collectAll)
      throw new Error(
        `${result.violations.join('\n')}\nplan: ${JSON.stringify(plan)}\napplied: ${JSON.stringify(result.applied)}\ndaemon log: ${result.logFile}`,
      );
  });
  // A run takes seconds, so no shrinking: the first failing plan is the report.
  const details = await fc.check(property, {
    numRuns: options.numRuns,
    seed: options.seed,
    endOnFailure: true,
    ...(options.path === undefined ? {} : { path: options.path }),
  });
  const firstBad = runs.find((r) => r.result.violations.length > 0);
  if (options.collectAll && firstBad)
    return { runs, failed: true, reproduce: firstBad.replay, failure: firstBad.result.violations.join('\n') };
  if (!details.failed) return { runs, failed: false };
  const reproduce = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ''}`;
  const error =
    details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return { runs, failed: true, reproduce, failure: error };
}
