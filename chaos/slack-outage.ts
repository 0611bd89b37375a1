// Scenario 3: Slack answers nothing but 503 and 429 (Retry-After: 5) for 5 minutes (--quick: 30 s) while
// markers keep coming, then recovers. Lost 0, duplicates 0, every alert delivered after recovery, and no
// request to Slack earlier than a 429's Retry-After allowed.
import { checked, figure, maxOf, round, type Figure } from '../bench/lib/figures.js';
import { until } from '../bench/lib/daemon-process.js';
import { expectedMarkers, receivedMarkers, lostAlerts } from './lib/markers.js';
import { runMarkers } from './lib/marker-run.js';
import { startRig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import type { ChaosSlack } from './lib/slack.js';

const SUITE = '3 Slack outage';
const TOLERANCE_MS = 50;

/** 429 answers followed by a request sooner than their Retry-After allowed. */
export function retryAfterViolations(log: ChaosSlack['log']): number {
  let violations = 0;
  log.forEach((entry, i) => {
    const next = log[i + 1];
    if (
      entry.retryAfterS !== undefined &&
      next &&
      next.at - entry.at < entry.retryAfterS * 1000 - TOLERANCE_MS
    )
      violations += 1;
  });
  return violations;
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const before = 10_000;
  const outageMs = ctx.quick ? 30_000 : 300_000;
  const markers = ctx.quick ? 40 : 120;
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-slack', tps: 100, lagMs: 500 },
    watched: 20,
    markers,
  });
  try {
    await rig.start();
    let downAt = 0;
    let upAt = 0;
    await runMarkers(rig, {
      durationMs: before + outageMs + 10_000,
      markers,
      tick(elapsed) {
        if (!downAt && elapsed >= before) {
          downAt = Date.now();
          rig.slack.setDown(true);
        }
        if (!upAt && elapsed >= before + outageMs) {
          upAt = Date.now();
          rig.slack.setDown(false);
        }
      },
    });
    const result = await rig.settle(ctx.quick ? 120_000 : 300_000);
    const expected = new Set([...expectedMarkers(rig.ledger.ledger), ...rig.injected]);
    await until(() => receivedMarkers(rig.slack.accepted()).size >= expected.size, 1_000);
    const lastOk = maxOf(rig.slack.log.filter((e) => e.status === 200).map((e) => e.at));
    const duringOutage = rig.slack.log.filter((e) => e.at >= downAt && e.at < upAt);
    const okDuringOutage = duringOutage.filter((e) => e.status === 200).length;
    return [
      figure(SUITE, 'outage', round(outageMs / 1000, 0), { unit: 's' }),
      figure(SUITE, 'requests answered 503/429 during the outage', duringOutage.length),
      figure(SUITE, 'expected alerts (ground truth)', result.expected),
      lostAlerts(SUITE, result),
      checked(SUITE, 'duplicate alerts', result.duplicates, '==', 0),
      checked(SUITE, 'accepted during the outage (must be none)', okDuringOutage, '==', 0),
      figure(SUITE, 'last alert delivered after recovery', round((lastOk - upAt) / 1000, 1), { unit: 's' }),
      checked(
        SUITE,
        'requests earlier than Retry-After allowed',
        retryAfterViolations(rig.slack.log),
        '==',
        0,
      ),
    ];
  } finally {
    await rig.close();
  }
}

export const slackOutage: Scenario = { n: 3, name: 'Slack down, then back', run };
