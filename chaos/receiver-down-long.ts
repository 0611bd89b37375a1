// Scenario 23: a receiver down past its deadline (issue #26), the hour compressed through the notifier's
// `deadline` (full: 20 s, Slack down 120 s; --quick: 8 s, down 30 s). The compiled daemon, one rule for every
// marker (so the catch-up can fold them into digests), Slack with its real `min_interval: 1s`; the sink answers
// 503 and resets connections alternately while markers keep coming one a second, then is back. Every expected
// alert (one per marker and watched account it touches) must end either delivered exactly once or dead-lettered
// (logged with its id, counted per alert, kept as `dead` in the outbox); dead letters only for alerts older than the deadline at a refused attempt; the catch-up no faster than
// one request per `min_interval`; the outbox bounded by the deadline while down and empty at the end.
import { copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { checked, figure, maxOf, round, type Figure } from '../bench/lib/figures.js';
import { metricSum, metricsText, until } from '../bench/lib/daemon-process.js';
import { runMarkers } from './lib/marker-run.js';
import { loggedAlertIds, markerDeliveries, type MarkerDelivery } from './lib/outbox-outcomes.js';
import { startRig, type Rig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { sleep } from './lib/seeded.js';
import { catchUpFigures, slackCarried, type CatchUp } from './receiver-down-catch-up.js';
import { outcomes } from './receiver-down-outcomes.js';

const SUITE = '23 receiver down past its deadline';
const RULE_ID = 'chaos-down';
const MIN_INTERVAL_MS = 1_000;
/** The rig's watched accounts: 0.0.1001 … (markers are paid by them in turn). */
const WATCHED = 4;
const ACCOUNTS = Array.from({ length: WATCHED }, (_, i) => `0.0.${1001 + i}`);
/** A dead letter is recorded right after the refused answer that decided it. */
const ATTEMPT_TOLERANCE_MS = 2_000;
const RULE = `rules:
  - id: ${RULE_ID}
    summary: "down {{memo}}"
    when: { memo: { regex: "^chaos-[0-9]+$" } }
    severity: critical
    throttle: 0s
    notify: [ops-slack]
`;

interface Plan {
  readonly deadlineMs: number;
  readonly beforeMs: number;
  readonly downMs: number;
  readonly afterMs: number;
}

interface Observed {
  readonly downAt: number;
  readonly upAt: number;
  /** outbox_depth of ops-slack sampled every 500 ms: [time, depth]. */
  readonly depth: [number, number][];
  /** outbox_depth read just before the receiver came back. */
  readonly depthAtReturn: number;
  readonly metrics: string;
  readonly stdout: string;
  readonly deliveries: Map<string, MarkerDelivery[]>;
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const plan: Plan = ctx.quick
    ? { deadlineMs: 8_000, beforeMs: 5_000, downMs: 30_000, afterMs: 10_000 }
    : { deadlineMs: 20_000, beforeMs: 10_000, downMs: 120_000, afterMs: 20_000 };
  const markers = Math.round((plan.beforeMs + plan.downMs + plan.afterMs) / 1000);
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-receiver-down', tps: 20, lagMs: 500 },
    watched: WATCHED,
    markers,
    compiled: true,
    slackDown: 'refusing',
    slackKeys: `group_wait: 0s, group_max_listed: 40, min_interval: ${MIN_INTERVAL_MS}ms, deadline: ${plan.deadlineMs}ms`,
    config: { pollInterval: '500ms' },
  });
  try {
    rig.dir.writeRule('marker.yaml', RULE); // one rule for all markers: the catch-up can coalesce
    const observed = await outage(ctx, rig, plan, markers);
    return figures(rig, plan, observed);
  } finally {
    await rig.close();
  }
}

// One scenario read top to bottom: start, mark, take Slack down and bring it back, wait, stop, read the outbox.
async function outage(ctx: ChaosContext, rig: Rig, plan: Plan, markers: number): Promise<Observed> {
  const daemon = await rig.start();
  const url = await daemon.httpUrl(30_000);
  const depthOf = async () => metricSum(await metricsText(url), 'ledger_sentinel_outbox_depth');
  const depth: [number, number][] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      depth.push([Date.now(), await depthOf().catch(() => NaN)]);
      await sleep(500);
    }
  })();
  let downAt = 0;
  let upAt = 0;
  let depthAtReturn = NaN;
  await runMarkers(rig, {
    durationMs: plan.beforeMs + plan.downMs + plan.afterMs,
    markers,
    async tick(elapsed) {
      if (!downAt && elapsed >= plan.beforeMs) {
        downAt = Date.now();
        rig.slack.setDown(true);
        ctx.log(
          `${SUITE}: Slack refusing for ${plan.downMs / 1000} s (deadline ${plan.deadlineMs / 1000} s)`,
        );
      }
      if (!upAt && elapsed >= plan.beforeMs + plan.downMs) {
        depthAtReturn = await depthOf();
        upAt = Date.now();
        rig.slack.setDown(false);
      }
    },
  });
  // Every marker settled (sent or dead-lettered) and nothing left in the outbox; then room for a late resend.
  const settled = () =>
    loggedAlertIds(daemon.stdout(), 'notification sent').ids.length +
      loggedAlertIds(daemon.stdout(), 'notification dead-lettered').ids.length >=
    markers;
  await until(async () => settled() && (await depthOf()) === 0, ctx.quick ? 120_000 : 300_000, 500);
  await sleep(2 * MIN_INTERVAL_MS);
  const metrics = await metricsText(url);
  sampling = false;
  await sampler;
  ctx.session.outputs.push({ label: 'metrics (receiver down)', text: metrics });
  daemon.kill('SIGTERM');
  await daemon.exited;
  const stateDir = join(rig.dir.dir, 'state');
  const { byMarker: deliveries, named } = markerDeliveries(stateDir, { rule: RULE_ID, channel: 'ops-slack' });
  for (const line of named.slice(0, 10)) ctx.log(`${SUITE}: ${line}`);
  const kept = join(tmpdir(), `ledger-sentinel-chaos-23-${basename(rig.dir.dir)}.db`);
  copyFileSync(join(stateDir, 'state.db'), kept);
  ctx.log(`${SUITE}: the stopped daemon's state: ${kept}`);
  return { downAt, upAt, depth, depthAtReturn, metrics, stdout: daemon.stdout(), deliveries };
}

function figures(rig: Rig, plan: Plan, o: Observed): Figure[] {
  const sent = loggedAlertIds(o.stdout, 'notification sent');
  const deadLogged = loggedAlertIds(o.stdout, 'notification dead-lettered');
  const carried = slackCarried(rig.slack.accepted());
  const outcome = outcomes(rig, ACCOUNTS, o.deliveries, sent.ids, carried.listings);
  const dead = [...o.deliveries.values()].flat().filter((d) => d.status === 'dead');
  const deadIds = new Set(dead.map((d) => d.alertId));
  const logMismatch =
    dead.filter((d) => !deadLogged.ids.includes(d.alertId)).length +
    deadLogged.ids.filter((id) => !deadIds.has(id)).length;
  const young = dead.filter((d) => (d.doneAt ?? 0) - d.createdAt < plan.deadlineMs).length;
  const refused = rig.slack.log.filter((e) => e.status !== 200).map((e) => e.at);
  const notAtAttempt = dead.filter((d) => {
    const at = d.doneAt ?? 0;
    return !refused.some((r) => r <= at && at - r <= ATTEMPT_TOLERANCE_MS);
  }).length;
  const catchUp: CatchUp = {
    upAt: o.upAt,
    minIntervalMs: MIN_INTERVAL_MS,
    accepted: rig.slack.log.filter((e) => e.status === 200 && e.at >= o.upAt).map((e) => e.at),
  };
  // The sink records each request in its log and its list in the same order: the bodies accepted after the return.
  const after = rig.slack.sink.requests.filter(
    (r, i) => r.answer.status === 200 && !r.answer.reset && (rig.slack.log[i]?.at ?? 0) >= o.upAt,
  );
  return [
    figure(
      SUITE,
      'deadline / Slack down (503 and resets)',
      `${plan.deadlineMs / 1000} s / ${plan.downMs / 1000} s`,
    ),
    figure(SUITE, 'markers injected (one a second)', rig.injected.size),
    figure(SUITE, 'expected alerts (one per marker and watched account it touches)', outcome.expected, {
      note: `${outcome.multi} markers touch two watched accounts (token legs the simulator adds)`,
    }),
    checked(SUITE, 'alerts dead-lettered (the fault bit)', outcome.dead.length, '>=', 1),
    checked(SUITE, 'alerts delivered', outcome.delivered.length, '>=', 1),
    checked(SUITE, 'lost (neither delivered nor dead-lettered)', outcome.lost.length, '==', 0, {
      ...(outcome.lost.length ? { note: outcome.lost.slice(0, 5).join(' ') } : {}),
    }),
    checked(
      SUITE,
      'doubled (two alerts, two sends, sent and dead, listed twice)',
      outcome.doubled.length,
      '==',
      0,
      {
        ...(outcome.doubled.length ? { note: outcome.doubled.slice(0, 4).join('; ') } : {}),
      },
    ),
    checked(SUITE, 'alerts on an account the marker does not touch', outcome.stray.length, '==', 0, {
      ...(outcome.stray.length ? { note: outcome.stray.slice(0, 5).join(' ') } : {}),
    }),
    checked(
      SUITE,
      'alerts carried by accepted Slack messages (listed + "and K more") ≠ sent',
      Math.abs(carried.total - sent.ids.length),
      '==',
      0,
      {
        note: `${carried.total} carried, ${sent.ids.length} logged as sent`,
      },
    ),
    checked(
      SUITE,
      'dead letters without their id in a log line, or logged but not dead',
      logMismatch,
      '==',
      0,
    ),
    checked(
      SUITE,
      'dead_letters_total − dead letters in the outbox',
      metricSum(o.metrics, 'ledger_sentinel_dead_letters_total') - dead.length,
      '==',
      0,
    ),
    checked(SUITE, 'dead letters younger than the deadline when decided', young, '==', 0),
    checked(
      SUITE,
      `dead letters not right after a refused request (${ATTEMPT_TOLERANCE_MS / 1000} s)`,
      notAtAttempt,
      '==',
      0,
    ),
    ...catchUpFigures(SUITE, catchUp, slackCarried(after.map((r) => r.body)).total),
    ...depthFigures(rig, plan, o),
  ];
}

/**
 * Bounded by time: a row still pending at the return had its last refused attempt younger than the deadline and
 * its next one still ahead, so it was enqueued within deadline + the longest retry delay before the return.
 */
function depthFigures(rig: Rig, plan: Plan, o: Observed): Figure[] {
  const delays = o.stdout
    .split('\n')
    .filter((l) => l.includes('"msg":"notification failed, will retry"'))
    .map((l) => Number((JSON.parse(l) as { retryInMs?: number }).retryInMs ?? 0));
  const window = plan.deadlineMs + Math.max(0, ...delays);
  const enqueued = [...o.deliveries.values()].flat().map((d) => d.createdAt);
  const bound = enqueued.filter((at) => at > o.upAt - window && at <= o.upAt).length;
  const whileDown = o.depth.filter(([at, d]) => at >= o.downAt && at <= o.upAt && Number.isFinite(d));
  const peak = maxOf(whileDown.map(([, d]) => d));
  const injectedDown = enqueued.filter((at) => at >= o.downAt && at <= o.upAt).length;
  return [
    figure(SUITE, 'outbox depth, peak while down / alerts enqueued while down', `${peak} / ${injectedDown}`),
    checked(SUITE, 'outbox depth at the return', o.depthAtReturn, '<=', bound, {
      note: `bound: enqueued in the last ${round(window / 1000, 1)} s (deadline + longest retry delay)`,
    }),
    checked(SUITE, 'outbox depth at the end', metricSum(o.metrics, 'ledger_sentinel_outbox_depth'), '==', 0),
  ];
}

export const receiverDownLong: Scenario = { n: 23, name: 'a receiver down past its deadline', run };
