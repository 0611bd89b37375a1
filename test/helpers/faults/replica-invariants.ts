// The invariants of the PostgreSQL fault world (pg-fault-world.ts), checked on what a run observed across every
// replica process it started: each returns the violations in words, so a failing property names what broke.
import { alertTally } from './alert-tally.js';
import { deliveryViolations, type ChannelDeliveries } from './fault-invariants.js';

/** The sentinel config's daemon.shutdown_grace in the fault worlds (bench/lib/sentinel-config.ts). */
export const SHUTDOWN_GRACE_MS = 5_000;
/**
 * A process that decided to exit is gone within shutdown_grace + 5 s (docs/operations.md, "Exit bound"); 5 s more
 * for a loaded test machine, as in test/integration/ha-exit-bound.test.ts.
 */
export const EXIT_BOUND_MS = SHUTDOWN_GRACE_MS + 10_000;
/**
 * Once every lock is released and every pause has ended, a marker on a clean account reaches the clean webhook
 * within this: the clean-stream bound of the SQLite world (20 s), plus a lease TTL, the standby's next attempt
 * and a replica's start, for the case where the lock or the pause outlasted the lease and the leader changed.
 */
export const TAIL_RESUME_BOUND_MS = 30_000;
/** A failing lane logs once per change of state: a fenced replica writes its loss once and its lane failure a few times at most. */
export const MAX_LEADERSHIP_LOST_LINES = 1;
export const MAX_LANE_FAILED_LINES = 3;
/** All replicas together, in any one second: the fenced leader of issue 26 wrote ~2,700 lines a second. */
export const MAX_LINES_PER_SECOND = 200;

export interface ReplicaExit {
  readonly holder: string;
  readonly pid: number;
  /** Why it was told or decided to exit (a signal, or `leadership lost`). */
  readonly decision: string;
  /** Milliseconds from the decision to the exit; undefined: still running when the bound had passed. */
  readonly tookMs: number | undefined;
  /** Ended by main.ts's exit deadline (code 3): a stop that did not finish within grace + 5 s. */
  readonly forced: boolean;
}

export interface ReplicaOutput {
  readonly holder: string;
  readonly pid: number;
  readonly stdout: string;
  /** It lost its lease (logged `leadership lost`) and so could not record what it sent last. */
  readonly fenced: boolean;
}

export interface ReplicaObservations {
  readonly expected: ReadonlySet<string>;
  readonly channels: readonly ChannelDeliveries[];
  readonly exits: readonly ReplicaExit[];
  readonly outputs: readonly ReplicaOutput[];
  /** From the probe markers' injection (the world calm again) to their delivery on the clean webhook. */
  readonly tailResumeMs: number | undefined;
  /** Most live replicas that answered `role: leader` at once while the run waited for one leader at the end. */
  readonly mostLeaders: number;
  /** Live replicas answering `role: leader` at the end. */
  readonly leadersAtEnd: number;
}

/** The notifier of each channel in the fault worlds' config (fault-world.ts, `notifiers`). */
const NOTIFIER: Readonly<Record<string, string>> = {
  slack: 'ops-slack',
  email: 'ops-mail',
  webhook: 'ops-hook',
};

/** The processes that logged alert `chaos-<n>@<account>` as sent on `notifier`, in order of their first such line. */
function sendersOf(outputs: readonly ReplicaOutput[], notifier: string, alert: string): ReplicaOutput[] {
  const [marker, account] = alert.split('@') as [string, string];
  const id = `chaos-marker-${marker.slice('chaos-'.length)}{account="${account}"}|`;
  const first = (o: ReplicaOutput) =>
    o.stdout
      .split('\n')
      .filter((l) => l.includes('"notification sent"') && l.includes(`"notifier":"${notifier}"`))
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as { time: number; alertIds?: string[] }];
        } catch {
          return []; // a line still being written
        }
      })
      .find((e) => (e.alertIds ?? []).some((a) => a.startsWith(id)))?.time;
  return outputs
    .map((o) => ({ o, at: first(o) }))
    .filter((x): x is { o: ReplicaOutput; at: number } => x.at !== undefined)
    .sort((a, b) => a.at - b.at)
    .map((x) => x.o);
}

/**
 * The one repeat the failover guarantee allows (docs/reliability.md, "Failover"): a leader that sent an alert but
 * could not record it (its tables locked, or paused) before its lease ran out is fenced, and the next leader sends
 * it again. An alert delivered k times is excused only when k processes logged it sent and every one but the last
 * was fenced; anything else is a duplicate.
 */
export function failoverRepeats(
  channel: ChannelDeliveries,
  expected: ReadonlySet<string>,
  outputs: readonly ReplicaOutput[],
): { excused: string[]; doubled: string[] } {
  const excused: string[] = [];
  const doubled: string[] = [];
  for (const d of alertTally(expected, channel.bodies).duplicates) {
    const [alert, times] = d.split('×') as [string, string];
    const senders = sendersOf(outputs, NOTIFIER[channel.name] ?? channel.name, alert);
    const ok = senders.length === Number(times) && senders.slice(0, -1).every((o) => o.fenced);
    (ok ? excused : doubled).push(`${channel.name}: ${d}`);
  }
  return { excused, doubled };
}

function channelViolations(o: ReplicaObservations): string[] {
  return o.channels.flatMap((c) => {
    const { doubled } = failoverRepeats(c, o.expected, o.outputs);
    const rest = deliveryViolations(o.expected, c).filter(
      (v) => !v.startsWith(`${c.name}: alerts delivered twice`),
    );
    return doubled.length
      ? [
          ...rest,
          `alerts delivered twice or more, not by a fenced leader and its successor: ${doubled.join(' ')}`,
        ]
      : rest;
  });
}

const linesWith = (text: string, needle: string) => text.split('\n').filter((l) => l.includes(needle)).length;

/** The busiest second of the replicas' logs together (pino's `time`, epoch milliseconds). */
export function peakLinesPerSecond(outputs: readonly ReplicaOutput[]): number {
  const perSecond = new Map<number, number>();
  for (const o of outputs)
    for (const m of o.stdout.matchAll(/"time":(\d+)/g)) {
      const second = Math.floor(Number(m[1]) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
  return Math.max(0, ...perSecond.values());
}

function exitViolations(exits: readonly ReplicaExit[]): string[] {
  const out: string[] = [];
  for (const e of exits) {
    const who = `${e.holder} (pid ${e.pid}, ${e.decision})`;
    if (e.tookMs === undefined) out.push(`${who} still running ${EXIT_BOUND_MS} ms after deciding to exit`);
    else if (e.tookMs > EXIT_BOUND_MS)
      out.push(`${who} exited ${e.tookMs} ms after its decision (bound ${EXIT_BOUND_MS})`);
    if (e.forced) out.push(`${who} was ended by the exit deadline (code 3): a stop that could not finish`);
  }
  return out;
}

function spinViolations(outputs: readonly ReplicaOutput[]): string[] {
  const out: string[] = [];
  for (const o of outputs) {
    const lost = linesWith(o.stdout, '"msg":"leadership lost');
    const lane = linesWith(o.stdout, 'delivery lane failed');
    if (lost > MAX_LEADERSHIP_LOST_LINES)
      out.push(`${o.holder} (pid ${o.pid}) logged leadership lost ${lost} times`);
    if (lane > MAX_LANE_FAILED_LINES)
      out.push(`${o.holder} (pid ${o.pid}) logged delivery lane failed ${lane} times`);
  }
  const peak = peakLinesPerSecond(outputs);
  if (peak > MAX_LINES_PER_SECOND)
    out.push(`${peak} log lines in one second (bound ${MAX_LINES_PER_SECOND})`);
  return out;
}

export function replicaViolations(o: ReplicaObservations): string[] {
  const out = channelViolations(o);
  out.push(...exitViolations(o.exits), ...spinViolations(o.outputs));
  if (o.tailResumeMs === undefined || o.tailResumeMs > TAIL_RESUME_BOUND_MS)
    out.push(
      `the tail did not resume: probe markers ${o.tailResumeMs === undefined ? 'never delivered' : `delivered after ${o.tailResumeMs} ms`} (bound ${TAIL_RESUME_BOUND_MS} ms)`,
    );
  if (o.mostLeaders > 1) out.push(`${o.mostLeaders} replicas answered role: leader at once`);
  if (o.leadersAtEnd !== 1) out.push(`${o.leadersAtEnd} leaders at the end, not 1`);
  return out;
}
