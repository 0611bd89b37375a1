// The set-up the PostgreSQL scenarios share: the rig (living ledger, receivers, 10 watched accounts) with its
// daemons as `ha.enabled` replicas on one state URL, under a supervisor that restarts any that exits, and the
// markers injected one per `everyMs` from the start.
import { startReplicaSet, type ReplicaSet } from '../../test/helpers/ha-replicas.js';
import { startRig, type Rig } from './rig.js';
import type { ChaosContext } from './scenario.js';
import { sleep } from './seeded.js';

export interface HaRigOptions {
  /** The living ledger's seed. */
  readonly seed: string;
  /** The replicas' PostgreSQL state URL. */
  readonly url: string;
  readonly markers: number;
  readonly holders: readonly string[];
  /** Run the compiled daemon (dist/) rather than the sources. */
  readonly compiled?: boolean;
  /** Between two markers, ms (default 1,000). */
  readonly everyMs?: number;
}

export interface HaRig {
  readonly rig: Rig;
  readonly set: ReplicaSet;
  /** How many markers have been injected so far. */
  marked(): number;
  /** Settles once every marker is injected. */
  readonly marking: Promise<void>;
}

export async function startHaRig(ctx: ChaosContext, options: HaRigOptions): Promise<HaRig> {
  const compiled = options.compiled ?? false;
  const rig = await startRig(ctx, {
    ledger: { seed: options.seed, tps: 50, lagMs: 500 },
    watched: 10,
    markers: options.markers,
    ...(compiled ? { compiled } : {}),
    config: {
      pollInterval: '500ms',
      state: `{ backend: postgres, postgres: { url: '${options.url}' } }`,
      extra: `ha: { enabled: true, lease_ttl: 6s, holder: '\${HOLDER}' }`,
    },
  });
  const set = startReplicaSet({
    configPath: rig.dir.configPath,
    holders: [...options.holders],
    ...(compiled ? { compiled } : {}),
    onSpawn: (p) => rig.daemons.push(p),
  });
  let next = 0;
  const marking = (async () => {
    while (next < options.markers) {
      rig.mark(next++);
      await sleep(options.everyMs ?? 1_000);
    }
  })();
  return { rig, set, marked: () => next, marking };
}
