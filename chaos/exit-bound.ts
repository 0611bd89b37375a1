// Scenario 20: every exit is bounded (issue #26, items 4 and 6). Three `ledger-sentinel run` replicas (ha.enabled,
// lease_ttl 6 s, shutdown_grace 5 s) on one PostgreSQL, with the living ledger and markers injected throughout;
// a supervisor restarts any replica that exits. Faults, in order:
//   1. the state tables locked (LOCK TABLE … IN ACCESS EXCLUSIVE MODE) for 30 s (15 s --quick) on the leader;
//   2. PostgreSQL crashed (pg_ctl stop -m immediate) and started again 10 s later;
//   3. seeded random SIGKILL / SIGSTOP+SIGCONT / SIGTERM of leaders and standbys.
// Measured: each process's exit after it decided or was told to (against the documented bound, grace + 5 s), the
// `leadership lost` lines per process, the log rate, /healthz of the live replicas every second, the leaders at
// the end, and every marker delivered (lost, doubled).
import { until } from '../bench/lib/daemon-process.js';
import { checked, figure, round, type Figure } from '../bench/lib/figures.js';
import {
  deliveriesByStatus,
  exitTook,
  linesWith,
  lockStateTables,
  type ReplicaProcess,
  type ReplicaSet,
} from '../test/helpers/ha-replicas.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { lostAlerts } from './lib/markers.js';
import { startHaRig } from './lib/ha-rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { seeded, sleep } from './lib/seeded.js';

const SUITE = '20 exit bound';
const GRACE_MS = 5_000; // the rig's daemon.shutdown_grace
const BOUND_MS = GRACE_MS + 5_000; // docs/operations.md, "Exit bound"

const alive = (r: ReplicaProcess) => r.exitedAt === undefined;

/** Every second: each live replica's /healthz (paused ones excluded), and the log lines written since. */
function probe(set: ReplicaSet, paused: Set<ReplicaProcess>) {
  let asked = 0;
  let answered = 0;
  let peak = 0;
  let lines = 0;
  let stopped = false;
  const count = () => set.all().reduce((n, r) => n + r.proc.stdout().split('\n').length, 0);
  const loop = (async () => {
    lines = count();
    while (!stopped) {
      await sleep(1_000);
      const now = count();
      peak = Math.max(peak, now - lines);
      lines = now;
      const live = set.slots.map((s) => s.current).filter((r) => alive(r) && !paused.has(r));
      await Promise.all(
        live.map(async (r) => {
          const url = await r.proc.httpUrl(100).catch(() => undefined);
          if (!url) return; // still starting
          asked++;
          const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })
            .then((res) => res.ok)
            .catch(() => false);
          // A process on its way out may close its port in the meantime: only a live one's silence counts.
          if (ok) answered++;
          else if (!alive(r)) asked--;
        }),
      );
    }
  })();
  return {
    stop: async () => void ((stopped = true), await loop),
    figures: () => ({ asked, answered, peak }),
  };
}

/** Live replicas reporting the leader role; polled for up to 30 s while a handover settles (0 or 2 → again). */
async function leadersNow(set: ReplicaSet): Promise<number> {
  let n = 0;
  await until(
    async () => {
      const live = set.slots.map((s) => s.current).filter(alive);
      const roles = await Promise.all(
        live.map(async (r) =>
          (await (await fetch(`${await r.proc.httpUrl()}/readyz`)).text()).includes('role: leader'),
        ),
      );
      n = roles.filter(Boolean).length;
      return n === 1;
    },
    30_000,
    250,
  );
  return n;
}

async function randomFaults(set: ReplicaSet, paused: Set<ReplicaProcess>, n: number): Promise<void> {
  const random = seeded(20261126);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  for (let i = 0; i < n; i++) {
    await set.waitForLeader(90_000);
    const slot = random() < 0.6 ? (set.leader() ?? pick(set.slots)) : pick(set.slots);
    const action = pick(['SIGKILL', 'SIGSTOP', 'SIGTERM'] as const);
    await sleep(1_000 + random() * 4_000);
    if (action !== 'SIGSTOP') set.signal(slot, action);
    else {
      const r = slot.current;
      paused.add(r);
      set.signal(slot, 'SIGSTOP');
      await sleep(2_000 + random() * 8_000);
      set.signal(slot, 'SIGCONT');
      paused.delete(r);
    }
  }
}

// Longer than 60 lines on purpose: one timeline of faults, then the figures.
async function run(ctx: ChaosContext): Promise<Figure[]> {
  const server = await startPostgres();
  const url = server.createDatabase('chaos_exit_bound');
  const markers = ctx.quick ? 30 : 80;
  const { rig, set, marking } = await startHaRig(ctx, {
    seed: 'chaos-exit-bound',
    url,
    markers,
    holders: ['replica-a', 'replica-b', 'replica-c'],
    compiled: true,
    everyMs: ctx.quick ? 1_500 : 2_000,
  });
  const paused = new Set<ReplicaProcess>();
  const probes = probe(set, paused);
  try {
    const first = await set.waitForLeader(90_000);
    // The tables exist once the leader replicated its first batches.
    await until(async () => (await deliveriesByStatus(url)) !== undefined, 60_000, 500);
    const lockMs = ctx.quick ? 15_000 : 30_000;
    ctx.log(`${SUITE}: state tables locked for ${lockMs / 1000} s on leader ${first.holder}`);
    const lock = await lockStateTables(url);
    await sleep(lockMs);
    await lock.release();
    await set.waitForLeader(90_000);
    ctx.log(`${SUITE}: PostgreSQL crashed (stop -m immediate), started again after 10 s`);
    server.crash();
    await sleep(10_000);
    server.start();
    await set.waitForLeader(90_000);
    const faults = ctx.quick ? 4 : 10;
    ctx.log(`${SUITE}: ${faults} seeded kills, pauses and terminations`);
    await randomFaults(set, paused, faults);
    await marking;
    await set.waitForLeader(90_000);
    const result = await rig.settle(120_000);
    const pending = (await deliveriesByStatus(url)).pending ?? 0;
    await probes.stop();
    const leaders = await leadersNow(set);
    const exits = set.all().filter((r) => r.exitedAt !== undefined && r.decidedAt !== undefined);
    const took = exits.map((r) => exitTook(r)!);
    const lostLines = set.all().map((r) => linesWith(r.proc.stdout(), '"msg":"leadership lost'));
    const laneLines = set.all().map((r) => linesWith(r.proc.stdout(), 'delivery lane failed'));
    const byDeadline = set.all().filter((r) => r.proc.child.exitCode === 3).length;
    const { asked, answered, peak } = probes.figures();
    return [
      figure(SUITE, 'replica exits after a decision (loss, SIGTERM, SIGKILL, wake)', exits.length),
      figure(SUITE, 'replicas restarted by the supervisor', set.restarts()),
      checked(
        SUITE,
        'slowest exit after the decision',
        round(Math.max(0, ...took) / 1000),
        '<=',
        BOUND_MS / 1000,
        {
          unit: 's',
          note: 'documented bound: daemon.shutdown_grace + 5 s',
        },
      ),
      checked(SUITE, 'exits past the bound', took.filter((ms) => ms > BOUND_MS).length, '==', 0),
      checked(SUITE, 'exits forced by the exit deadline (code 3)', byDeadline, '==', 0),
      checked(SUITE, '"leadership lost" lines in one process, most', Math.max(0, ...lostLines), '<=', 1),
      checked(SUITE, '"delivery lane failed" lines in one process, most', Math.max(0, ...laneLines), '<=', 3),
      checked(SUITE, 'log lines per second, all replicas, peak', peak, '<=', 200),
      checked(
        SUITE,
        '/healthz of live replicas answered',
        asked ? round((100 * answered) / asked) : 0,
        '>=',
        99,
        {
          unit: '%',
          note: `${answered} of ${asked}`,
        },
      ),
      checked(SUITE, 'leaders at the end', leaders, '==', 1),
      checked(SUITE, 'deliveries pending at the end', pending, '==', 0),
      figure(SUITE, 'expected alerts (ground truth)', result.expected),
      lostAlerts(SUITE, result),
      checked(SUITE, 'duplicate alerts', result.duplicates, '<=', set.restarts(), {
        note: 'target 0; at most one per exit with a send on the wire',
      }),
    ];
  } finally {
    await probes.stop();
    await marking;
    await set.close();
    await rig.close();
    server.destroy();
  }
}

export const exitBound: Scenario = { n: 20, name: 'every exit bounded: locked tables, crashes, pauses', run };
