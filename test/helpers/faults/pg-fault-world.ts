// One property run on the PostgreSQL state: the hostile world of fault-world.ts (living ledger behind the hostile
// query service, hostile Slack and SMTP, a clean webhook), and two HA replicas (`ledger-sentinel run` with
// ha.enabled, lease_ttl 3 s) on a real PostgreSQL under a supervisor that restarts any replica that exits, as
// Kubernetes would. Besides the plan's query, sink, clock and pause faults (a pause hits the leader), a second
// connection holds `LOCK TABLE <some of the daemon's tables> IN ACCESS EXCLUSIVE MODE` for a while at random
// moments, shorter or longer than the lease. Once the world is calm again (healed, every lock released, every pause
// over) a probe pair of markers is written on the clean accounts: the tail must still be moving. The run then
// waits for every marker on every channel, for every process that decided to exit to be gone, and for one leader.
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { until } from '../../../bench/lib/daemon-process.js';
import { sentinelDir } from '../../../bench/lib/sentinel-config.js';
import { expectedMarkers, injectMarker } from '../../../chaos/lib/markers.js';
import { exitTook, startReplicaSet, type ReplicaSet } from '../ha-replicas.js';
import type { PostgresServer } from '../postgres.js';
import { alertTally, faultRules } from './alert-tally.js';
import { fakeClock } from './fake-clock.js';
import { LOCK_WORLD_LEASE_TTL_MS, type FaultPlan } from './fault-plan.js';
import type { WorldResult } from './fault-property.js';
import { cleanLatencies, FAULTED, injectMarkers, WATCHED, type FaultWorldOptions } from './fault-world.js';
import { startHostileServices } from './hostile-services.js';
import { tableLocker } from './table-locker.js';
import {
  EXIT_BOUND_MS,
  failoverRepeats,
  peakLinesPerSecond,
  replicaViolations,
  type ReplicaExit,
  type ReplicaObservations,
} from './replica-invariants.js';

const UNWATCHED = '0.0.1010';
const DUPLICATE_GRACE_MS = 2_000;
const HOLDERS = ['pod-a', 'pod-b'];

export interface PgFaultWorldOptions extends FaultWorldOptions {
  /** The PostgreSQL server; each run gets a database of its own on it. */
  readonly server: PostgresServer;
}

export interface PgFaultWorldResult extends WorldResult {
  readonly observations: ReplicaObservations;
  /** Processes started in all (first replicas and the supervisor's restarts). */
  readonly processes: number;
}

let runs = 0;

export async function runPgFaultWorld(
  plan: FaultPlan,
  options: PgFaultWorldOptions,
): Promise<PgFaultWorldResult> {
  const world = await startHostileServices(plan, options.seed, FAULTED);
  const { ledger, hookArrivals } = world;
  runs += 1;
  const url = options.server.createDatabase(`faults_${process.pid}_${runs}`);
  const dir = sentinelDir('ledger-sentinel-pg-faults-');
  const urlFile = join(dir.dir, 'pg-url');
  appendFileSync(urlFile, url);
  dir.writeConfig({
    ledgerUrl: world.queryUrl,
    accounts: WATCHED,
    strategy: 'per-account',
    pollInterval: '500ms',
    overlap: '3s',
    ledgerExtra: '  timeouts: { connect: 1s, headers: 1s, body: 2s }',
    notifiers: world.notifiers,
    state: `{ backend: postgres, postgres: { url_file: ${urlFile} } }`,
    extra: `ha: { enabled: true, lease_ttl: ${LOCK_WORLD_LEASE_TTL_MS}ms, holder: '\${HOLDER}' }`,
  });
  // Two more markers than the plan's: the probe pair written once the world is calm again.
  dir.writeRule('marker.yaml', faultRules(options.markers + 2, ['ops-slack', 'ops-mail', 'ops-hook']));
  const clock = plan.clock.some((f) => f.kind === 'step') ? fakeClock(dir.dir) : undefined;
  if (!clock && plan.clock.some((f) => f.kind === 'step') && process.env.CI === 'true')
    throw new Error('libfaketime is missing: apt-get install faketime');
  const set = startReplicaSet({
    configPath: dir.configPath,
    holders: HOLDERS,
    compiled: options.compiled,
    ...(clock ? { env: clock.env } : {}),
  });
  const logFile = join(tmpdir(), `${basename(dir.dir)}.log`);
  const locker = tableLocker(url);
  try {
    await startedPair(set, logFile);
    const pauser = leaderPauser(set);
    const steps = plan.clock.map((f) => (f.kind === 'step' ? f.offsetS : 0));
    const heal = () => {
      world.heal();
      clock?.set(0);
    };
    const step = (pair: number) => {
      clock?.set(steps[pair % steps.length] ?? 0);
      const pause = plan.process[pair % Math.max(1, plan.process.length)];
      if (pause?.kind === 'pause') pauser.pause(pause.ms);
      const lock = plan.locks[pair % Math.max(1, plan.locks.length)];
      if (lock?.kind === 'lock') locker.lock(lock);
    };
    await injectMarkers(options, ledger.ledger, heal, step);
    await Promise.all([pauser.done(), locker.done()]);
    const probeAt = injectProbe(ledger.ledger, options.markers);
    const channels = world.channels;
    const expected = expectedMarkers(ledger.ledger);
    const complete = () => channels().every((c) => alertTally(expected, c.bodies).lost.length === 0);
    if (await until(complete, options.settleMs, 250)) await sleep(DUPLICATE_GRACE_MS);
    const probe = [...cleanLatencies(probeAt, hookArrivals).values()];
    const exits = await exitsOf(set);
    const leaders = await oneLeader(set);
    const observations: ReplicaObservations = {
      expected,
      channels: channels(),
      exits,
      outputs: set.all().map((r) => ({
        holder: r.holder,
        pid: r.proc.pid,
        stdout: r.proc.stdout(),
        fenced: r.decision === 'leadership lost',
      })),
      tailResumeMs: probe.some((ms) => ms === undefined) ? undefined : Math.max(...(probe as number[])),
      ...leaders,
    };
    const applied = {
      ...world.stats(),
      clock: { steps: clock ? steps.filter((s) => s !== 0).length : 0 },
      process: { pauses: pauser.count(), restarts: set.restarts() },
      locks: locker.stats(),
      replicas: {
        exitDecisions: exits.length,
        slowestExitMs: Math.max(0, ...exits.map((e) => e.tookMs ?? Infinity)),
        peakLogLinesPerSecond: peakLinesPerSecond(observations.outputs),
        lingerExits: set.all().filter((r) => r.proc.stderr().includes('handles stayed open')).length,
        tailResumeMs: observations.tailResumeMs ?? -1,
      },
      delivery: {
        repeatsAfterFencing: observations.channels.reduce(
          (n, c) => n + failoverRepeats(c, expected, observations.outputs).excused.length,
          0,
        ),
      },
    };
    const violations = replicaViolations(observations);
    return { observations, violations, applied, logFile, processes: set.all().length };
  } finally {
    await locker.done();
    await set.close();
    writeLog(set, logFile);
    await world.close();
    dir.remove();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Waits for a leader and for every replica to have started (the standby ready to take over). */
async function startedPair(set: ReplicaSet, logFile: string): Promise<void> {
  try {
    await set.waitForLeader(60_000);
    await Promise.all(
      set.slots.map((s) => s.current.proc.waitFor((out) => out.includes('"msg":"started"'), 60_000)),
    );
  } catch (err) {
    // Not a fault verdict: the replicas never came up, so no invariant was checked.
    throw new Error(`the replicas did not start (${String(err)}); their log: ${logFile}`);
  }
}

/** Two markers on the clean accounts, now; returns when each was written. */
function injectProbe(ledger: Parameters<typeof injectMarker>[0], first: number): Map<string, number> {
  const at = new Map<string, number>();
  const clean = WATCHED.filter((a) => !FAULTED.has(a));
  for (const [i, payer] of clean.slice(0, 2).entries()) {
    injectMarker(ledger, first + i, payer, UNWATCHED);
    at.set(`chaos-${first + i}`, Date.now());
  }
  return at;
}

/** SIGSTOP of the current leader, SIGCONT `ms` later (to the same process, even if its slot was restarted). */
function leaderPauser(set: ReplicaSet) {
  let running: Promise<void> = Promise.resolve();
  let count = 0;
  let paused = false;
  return {
    pause(ms: number): void {
      const slot = set.leader();
      if (paused || !slot) return;
      paused = true;
      count += 1;
      const proc = slot.current;
      set.signal(slot, 'SIGSTOP');
      running = sleep(ms).then(() => {
        if (slot.current === proc) set.signal(slot, 'SIGCONT');
        else proc.proc.kill('SIGCONT');
        paused = false;
      });
    },
    done: () => running,
    count: () => count,
  };
}

/** Every process that was told or decided to exit, once the bound has passed for it (or it is gone). */
async function exitsOf(set: ReplicaSet): Promise<ReplicaExit[]> {
  const told = set.all().filter((r) => r.decidedAt !== undefined && r.decision !== 'SIGCONT');
  await Promise.all(
    told.map((r) =>
      Promise.race([r.proc.exited, sleep((r.decidedAt ?? 0) + EXIT_BOUND_MS + 1_000 - Date.now())]),
    ),
  );
  return told.map((r) => ({
    holder: r.holder,
    pid: r.proc.pid,
    decision: r.decision ?? '',
    tookMs: exitTook(r),
    // Code 3 only: a stop that did not finish within grace + 5 s. A fenced leader whose pool client still waits on
    // a locked table leaves that socket open when its command ends; main.ts's 1 s linger bound then exits it with
    // code 1, a designed and bounded path (counted as lingerExits).
    forced: r.proc.child.exitCode === 3,
  }));
}

/** Waits (30 s at most) until exactly one live replica answers `role: leader` on /readyz, noting the most seen at once. */
async function oneLeader(set: ReplicaSet): Promise<{ mostLeaders: number; leadersAtEnd: number }> {
  let most = 0;
  let now = 0;
  const count = async () => {
    const live = set.slots.map((s) => s.current).filter((r) => r.exitedAt === undefined);
    const roles = await Promise.all(
      live.map(async (r) => {
        try {
          const base = await r.proc.httpUrl(2_000);
          const answer = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(2_000) });
          return (await answer.text()).includes('role: leader');
        } catch {
          return false; // starting, stopping or paused: not a leader anyone can reach
        }
      }),
    );
    now = roles.filter(Boolean).length;
    most = Math.max(most, now);
    return now === 1;
  };
  await until(count, 30_000, 250);
  return { mostLeaders: most, leadersAtEnd: now };
}

function writeLog(set: ReplicaSet, logFile: string): void {
  for (const r of set.all())
    appendFileSync(
      logFile,
      `==== ${r.holder} pid ${r.proc.pid} (${r.decision ?? 'no exit decision'}, exit took ${exitTook(r) ?? '-'} ms)\n${r.proc.stdout()}${r.proc.stderr()}`,
    );
}
