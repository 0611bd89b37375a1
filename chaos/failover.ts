// Scenario 16: three `ledger-sentinel run` replicas (ha.enabled) on one PostgreSQL state, with the living ledger.
// The leader is killed -9 at random moments (restarted as a standby, as Kubernetes would), one leader is
// SIGSTOPped past its lease and woken (fencing), the database connections are cut once and PostgreSQL is
// restarted once. Any replica that exits (a lost lease exits 1) is restarted as a standby.
//
// Commits by a fenced leader are measured apart from the fence itself: every replicated batch is counted under its
// token in sentinel_commits with its commit time (migration 2), and this scenario records each token's
// acquisition time from sentinel_lease; a batch of token T committed after token T+1 was acquired is a fenced
// commit. The SIGSTOPped leader's own count is also compared before and after it woke.
import { checked, figure, percentile, round, type Figure } from '../bench/lib/figures.js';
import type { SentinelProcess } from '../bench/lib/daemon-process.js';
import { startPostgres } from '../test/helpers/postgres.js';
import { alertIdsByMarker, lostAlerts, receivedMarkers } from './lib/markers.js';
import { commits, cutConnections, fencedCommits, watchLease, type Watch } from './lib/lease-watch.js';
import { startRig, type Rig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { seeded, sleep } from './lib/seeded.js';

const SUITE = '16 failover';
const TTL_MS = 3000;
const POLL_MS = 500;

interface Slot {
  readonly holder: string;
  proc: SentinelProcess;
  /** Set while this scenario stops or kills it on purpose (the supervisor leaves it alone). */
  held: boolean;
}

const exited = (p: SentinelProcess) => p.child.exitCode !== null || p.child.signalCode !== null;

/** Over every process started so far (a restarted replica's earlier lines stay counted). */
const electedLines = (procs: readonly SentinelProcess[]) =>
  procs.reduce((n, p) => n + p.stdout().split('leader elected').length - 1, 0);

/** Waits for the next `leader elected` line in any replica; returns ms from `since`, or undefined. */
async function nextElection(
  procs: readonly SentinelProcess[],
  before: number,
  since: number,
): Promise<number | undefined> {
  for (let i = 0; i < 600; i++) {
    if (electedLines(procs) > before) return Date.now() - since;
    await sleep(50);
  }
  return undefined;
}

/** As Kubernetes would: a replica that exited is started again (as a standby). */
function supervise(
  ctx: ChaosContext,
  rig: Rig,
  slots: Slot[],
): { restarts(): number; stop(): Promise<void> } {
  let stopped = false;
  let restarts = 0;
  const loop = (async () => {
    while (!stopped) {
      for (const slot of slots)
        if (!slot.held && exited(slot.proc)) {
          restarts++;
          const { exitCode, signalCode } = slot.proc.child;
          const why = slot.proc.stderr().trim().split('\n').at(-1) ?? '';
          if (signalCode !== 'SIGKILL')
            ctx.log(`${SUITE}: ${slot.holder} exited ${exitCode ?? signalCode}: ${why}`);
          slot.proc = await rig.start({ HOLDER: slot.holder });
        }
      await sleep(200);
    }
  })();
  return { restarts: () => restarts, stop: async () => void ((stopped = true), await loop) };
}

async function killLeader(slots: Slot[], watch: Watch, signal: NodeJS.Signals): Promise<Slot> {
  let slot: Slot | undefined;
  for (let i = 0; i < 400 && !slot; i++) {
    const holder = watch.holder();
    slot = slots.find((s) => s.holder === holder && !exited(s.proc));
    if (!slot) await sleep(50);
  }
  if (!slot) throw new Error('no live leader within 20 s');
  slot.held = true;
  slot.proc.kill(signal);
  if (signal === 'SIGKILL') {
    await slot.proc.exited;
    slot.held = false; // the supervisor starts it again, as a standby
  }
  return slot;
}

async function sigstop(slots: Slot[], rig: Rig, watch: Watch, url: string): Promise<number> {
  const before = electedLines(rig.daemons);
  const slot = await killLeader(slots, watch, 'SIGSTOP');
  const token = [...watch.acquired.keys()].at(-1)!;
  await nextElection(rig.daemons, before, Date.now());
  await sleep(500);
  const asleep = (await commits(url)).get(token)?.batches ?? 0;
  slot.proc.kill('SIGCONT');
  await Promise.race([slot.proc.exited, sleep(20_000)]);
  const woken = (await commits(url)).get(token)?.batches ?? 0;
  if (!exited(slot.proc)) slot.proc.kill('SIGKILL');
  await slot.proc.exited;
  slot.proc = await rig.start({ HOLDER: slot.holder });
  slot.held = false;
  return woken - asleep;
}

// Longer than 60 lines on purpose: one timeline of injections, kills and faults.
async function run(ctx: ChaosContext): Promise<Figure[]> {
  const kills = ctx.quick ? 5 : 20;
  const durationMs = ctx.quick ? 30_000 : 150_000;
  const markers = ctx.quick ? 40 : 150;
  const random = seeded(20261125);
  const server = await startPostgres();
  const url = server.createDatabase('chaos_failover');
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-failover', tps: 100, lagMs: 500 },
    watched: 20,
    markers,
    compiled: true,
    config: {
      pollInterval: `${POLL_MS}ms`,
      overlap: '10s',
      state: `{ backend: postgres, postgres: { url: '${url}' } }`,
      extra: `ha: { enabled: true, lease_ttl: ${TTL_MS / 1000}s, holder: '\${HOLDER}' }`,
    },
  });
  const watch = await watchLease(url);
  const slots: Slot[] = [];
  try {
    for (const holder of ['replica-a', 'replica-b', 'replica-c'])
      slots.push({ holder, proc: await rig.start({ HOLDER: holder }), held: false });
    const supervisor = supervise(ctx, rig, slots);
    const failovers: number[] = [];
    let missed = 0;
    const started = Date.now();
    const killAt = Array.from({ length: kills }, () => 3000 + random() * (durationMs - 6000)).sort(
      (a, b) => a - b,
    );
    const markAt = Array.from({ length: markers }, (_, i) => ((i + random()) / markers) * durationMs);
    const faults = [
      { at: durationMs * 0.3, what: 'cut' },
      { at: durationMs * 0.55, what: 'restart' },
      { at: durationMs * 0.8, what: 'sigstop' },
    ];
    let nextKill = 0;
    let nextMark = 0;
    let fencedAfterWake = 0;
    let cut = 0;
    while (Date.now() - started < durationMs || nextKill < killAt.length || faults.length > 0) {
      const elapsed = Date.now() - started;
      while (nextMark < markAt.length && markAt[nextMark]! <= elapsed) rig.mark(nextMark++);
      if (nextKill < killAt.length && killAt[nextKill]! <= elapsed) {
        nextKill++;
        const before = electedLines(rig.daemons);
        const at = Date.now();
        await killLeader(slots, watch, 'SIGKILL');
        const took = await nextElection(rig.daemons, before, at);
        if (took === undefined) missed++;
        else failovers.push(took);
      } else if (faults[0] && faults[0].at <= elapsed) {
        const fault = faults.shift()!;
        ctx.log(`${SUITE}: ${fault.what} at ${Math.round(elapsed / 1000)} s`);
        if (fault.what === 'cut') cut = await cutConnections(url);
        if (fault.what === 'restart') server.restart();
        if (fault.what === 'sigstop') fencedAfterWake = await sigstop(slots, rig, watch, url);
      }
      await sleep(20);
    }
    while (nextMark < markAt.length) rig.mark(nextMark++);
    ctx.log(`${SUITE}: ${failovers.length} failovers; settling`);
    const result = await rig.settle(90_000);
    await supervisor.stop();
    const counts = receivedMarkers(rig.slack.accepted());
    const ids = alertIdsByMarker(rig.slack.accepted());
    const doubled = [...counts]
      .filter(([, n]) => n > 1)
      .map(([m, n]) => `${m} ×${n}`)
      .join(', ');
    const unrecognisable = [...counts].filter(([m, n]) => n > 1 && (ids.get(m)?.size ?? 0) !== 1).length;
    const byToken = await commits(url);
    const bound = TTL_MS + POLL_MS;
    return [
      figure(SUITE, 'kills of the leader (SIGKILL, restarted as a standby)', failovers.length + missed),
      figure(SUITE, 'replicas restarted as standbys (killed ones included)', supervisor.restarts()),
      figure(SUITE, 'database connections cut (pg_terminate_backend)', cut),
      figure(SUITE, 'leaderships (fencing tokens)', watch.acquired.size),
      figure(SUITE, 'expected alerts (ground truth)', result.expected),
      lostAlerts(SUITE, result),
      checked(SUITE, 'duplicate alerts', result.duplicates, '<=', failovers.length + missed, {
        note: `target 0, at most one per kill (a send cut off mid-request); doubled: ${doubled || 'none'}`,
      }),
      checked(SUITE, 'duplicates not recognisable by their alert id', unrecognisable, '==', 0),
      checked(SUITE, 'kills without a new leader within 30 s', missed, '==', 0),
      checked(
        SUITE,
        'failover p50 (kill → leader elected)',
        round(percentile(failovers, 50) / 1000),
        '<=',
        bound / 1000,
        {
          unit: 's',
        },
      ),
      checked(
        SUITE,
        'failover p99 (kill → leader elected)',
        round(percentile(failovers, 99) / 1000),
        '<=',
        bound / 1000,
        {
          unit: 's',
        },
      ),
      checked(
        SUITE,
        'leaderships with a commit after a newer token was acquired',
        fencedCommits(watch.acquired, byToken),
        '==',
        0,
      ),
      checked(SUITE, 'batches committed by the SIGSTOPped leader after it woke', fencedAfterWake, '==', 0),
    ];
  } finally {
    await watch.stop();
    await rig.close();
    server.destroy();
  }
}

export const failover: Scenario = { n: 16, name: 'failover of three replicas on PostgreSQL', run };
