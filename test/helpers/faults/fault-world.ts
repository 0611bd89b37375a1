// One property run: the living ledger behind the hostile query service, a hostile Slack, a hostile SMTP server
// and a clean webhook receiver, and the real daemon as a child process (`ledger-sentinel run`) tailing four
// accounts per account — two faulted, two clean. Markers (chaos/lib/markers.ts) are written, in pairs, to all four during
// `durationMs`; the world is hostile for the first `faultShare` of it, then heals; the run waits until every
// channel has every marker (or `settleMs`), lets late duplicates arrive, and returns what it observed.
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { spawnSentinel, until, type SentinelProcess } from '../../../bench/lib/daemon-process.js';
import { sentinelDir } from '../../../bench/lib/sentinel-config.js';
import { expectedMarkers, injectMarker } from '../../../chaos/lib/markers.js';
import { alertsOf, alertTally, faultRules } from './alert-tally.js';
import { faultViolations, type FaultObservations } from './fault-invariants.js';
import type { FaultPlan } from './fault-plan.js';
import { startHostileServices } from './hostile-services.js';
import { startLivenessProbe } from './liveness-probe.js';
import { fakeClock, type FakeClock } from './fake-clock.js';

export const WATCHED = ['0.0.1001', '0.0.1002', '0.0.1003', '0.0.1004'] as const;
export const FAULTED = new Set<string>(['0.0.1001', '0.0.1002']);
const UNWATCHED = '0.0.1010';
/** After every channel has every marker, how long late duplicates get to show up. */
const DUPLICATE_GRACE_MS = 2_000;

export interface FaultWorldOptions {
  readonly markers: number;
  readonly durationMs: number;
  /** Share of durationMs during which the world is hostile. */
  readonly faultShare: number;
  readonly settleMs: number;
  /** Ledger seed (the plan comes from fast-check). */
  readonly seed: string;
  /** Run the compiled daemon (dist/, `npm run build` first) instead of the sources through tsx. */
  readonly compiled?: boolean;
}

export interface FaultWorldResult {
  readonly observations: FaultObservations;
  readonly violations: string[];
  /** Faults applied by kind, per service. */
  readonly applied: Record<string, Record<string, number>>;
  /** Where the daemon's output was written. */
  readonly logFile: string;
}

export async function runFaultWorld(plan: FaultPlan, options: FaultWorldOptions): Promise<FaultWorldResult> {
  if (plan.locks.some((f) => f.kind !== 'none'))
    throw new Error(
      'table locks need the PostgreSQL world (pg-fault-world.ts): leave table-lock out of kinds',
    );
  const world = await startHostileServices(plan, options.seed, FAULTED);
  const { ledger, hookArrivals } = world;
  const dir = sentinelDir('ledger-sentinel-faults-');
  dir.writeConfig({
    ledgerUrl: world.queryUrl,
    accounts: WATCHED,
    strategy: 'per-account',
    pollInterval: '500ms',
    overlap: '3s',
    ledgerExtra: '  timeouts: { connect: 1s, headers: 1s, body: 2s }',
    notifiers: world.notifiers,
  });
  dir.writeRule('marker.yaml', faultRules(options.markers, ['ops-slack', 'ops-mail', 'ops-hook']));
  const clock = clockFor(plan, dir.dir);
  const daemon = spawnSentinel(['run', '--config', dir.configPath], {
    compiled: options.compiled,
    ...(clock ? { env: clock.env } : {}),
  });
  const logFile = join(tmpdir(), `${basename(dir.dir)}.log`);
  try {
    const url = await daemon.httpUrl(60_000).catch((err: unknown) => {
      // Not a fault verdict: the daemon never came up, so no invariant was checked.
      throw new Error(`the daemon did not start (${String(err)}); its log: ${logFile}`);
    });
    const probe = startLivenessProbe(url, daemon.pid);
    const heal = () => {
      world.heal();
      clock?.set(0);
    };
    const steps = plan.clock.map((f) => (f.kind === 'step' ? f.offsetS : 0));
    const pauser = processPauser(daemon.pid, probe);
    const step = (pair: number) => {
      clock?.set(steps[pair % steps.length] ?? 0);
      const fault = plan.process[pair % Math.max(1, plan.process.length)];
      if (fault?.kind === 'pause') pauser.pause(fault.ms);
    };
    const injectedAt = await injectMarkers(options, ledger.ledger, heal, step);
    await pauser.done();
    const channels = world.channels;
    const expected = expectedMarkers(ledger.ledger);
    const complete = () => channels().every((c) => alertTally(expected, c.bodies).lost.length === 0);
    if (await until(complete, options.settleMs, 250))
      await new Promise((r) => setTimeout(r, DUPLICATE_GRACE_MS));
    const observations: FaultObservations = {
      expected,
      channels: channels(),
      cleanLatencyMs: cleanLatencies(injectedAt, hookArrivals),
      liveness: await probe.stop(),
    };
    const clockSteps = { steps: clock ? steps.filter((s) => s !== 0).length : 0 };
    const applied = {
      ...world.stats(),
      clock: clockSteps,
      process: { pauses: pauser.count() },
    };
    return { observations, violations: faultViolations(observations), applied, logFile };
  } finally {
    await stopDaemon(daemon, logFile);
    await world.close();
    dir.remove();
  }
}

/**
 * Stops the daemon process (SIGSTOP) and continues it (SIGCONT) after `ms`, one pause at a time; the liveness probe
 * is told first, so the pause is not read as a frozen event loop. `done()` waits for a pause still running.
 */
function processPauser(pid: number, probe: ReturnType<typeof startLivenessProbe>) {
  let running: Promise<void> = Promise.resolve();
  let paused = false;
  let count = 0;
  return {
    pause(ms: number): void {
      if (paused) return;
      paused = true;
      count += 1;
      probe.holdUntil(performance.now() + ms);
      process.kill(pid, 'SIGSTOP');
      running = new Promise<void>((resolve) =>
        setTimeout(() => {
          process.kill(pid, 'SIGCONT');
          paused = false;
          resolve();
        }, ms),
      );
    },
    done: () => running,
    count: () => count,
  };
}

/**
 * The daemon's fake wall clock when the plan steps it. Without libfaketime a plan's clock steps are not played
 * (the other faults are); with CI=true that is an error (.ci/apt-packages installs it).
 */
function clockFor(plan: FaultPlan, dir: string): FakeClock | undefined {
  if (!plan.clock.some((f) => f.kind === 'step')) return undefined;
  const clock = fakeClock(dir);
  if (!clock && process.env.CI === 'true')
    throw new Error('libfaketime is missing: apt-get install faketime');
  return clock;
}

/** SIGTERM, SIGKILL after 10 s, and the daemon's output appended to its log file. */
async function stopDaemon(daemon: SentinelProcess, logFile: string): Promise<void> {
  daemon.kill('SIGTERM');
  const killer = setTimeout(() => daemon.kill('SIGKILL'), 10_000);
  await daemon.exited;
  clearTimeout(killer);
  appendFileSync(logFile, `${daemon.stdout()}${daemon.stderr()}`);
}

/**
 * Writes the markers in pairs on one account, the pairs evenly over durationMs, healing the world after
 * faultShare of it; returns when each clean marker was written. Pairs give pages of several records, so
 * reordered and duplicated pages matter.
 */
export async function injectMarkers(
  options: FaultWorldOptions,
  ledger: Parameters<typeof injectMarker>[0],
  heal: () => void,
  step: (pair: number) => void,
): Promise<Map<string, number>> {
  const injectedAt = new Map<string, number>();
  const started = Date.now();
  let healed = false;
  for (let n = 0; n < options.markers; n++) {
    const due = started + ((n - (n % 2)) / options.markers) * options.durationMs;
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
    if (!healed && Date.now() - started >= options.faultShare * options.durationMs) {
      heal();
      healed = true;
    }
    if (!healed && n % 2 === 0) step(n / 2);
    const payer = WATCHED[Math.floor(n / 2) % WATCHED.length] as string;
    injectMarker(ledger, n, payer, UNWATCHED);
    if (!FAULTED.has(payer)) injectedAt.set(`chaos-${n}`, Date.now());
  }
  await new Promise((r) => setTimeout(r, Math.max(0, started + options.durationMs - Date.now())));
  if (!healed) heal();
  return injectedAt;
}

export function cleanLatencies(
  injectedAt: ReadonlyMap<string, number>,
  arrivals: readonly { at: number; body: string }[],
): Map<string, number | undefined> {
  const latency = new Map<string, number | undefined>();
  for (const [marker, at] of injectedAt) {
    const first = arrivals.find((a) => [...alertsOf(a.body)].some((k) => k.startsWith(`${marker}@`)));
    latency.set(marker, first === undefined ? undefined : first.at - at);
  }
  return latency;
}
