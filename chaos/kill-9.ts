// Scenario 1: kill -9 of the daemon at 20 random points during a 50,000-transaction run (500 TPS, 2 % of rows
// late); restarted at once on the same state. Lost alerts 0; duplicates at most one per kill.
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { alertIdsByMarker, receivedMarkers, lostAlerts } from './lib/markers.js';
import { startRig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { seeded, sleep } from './lib/seeded.js';

const SUITE = '1 kill -9';

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const tps = 500;
  const transactions = ctx.quick ? 10_000 : 50_000;
  const kills = ctx.quick ? 5 : 20;
  const markers = ctx.quick ? 60 : 250;
  const durationMs = (transactions / tps) * 1000;
  const random = seeded(20261121);
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-kill', tps, lagMs: 500, lateVisibility: { fraction: 0.02, delay_ms: 4_000 } },
    watched: 50,
    markers,
    config: { pollInterval: '500ms', overlap: '10s' },
  });
  try {
    let daemon = await rig.start();
    const started = Date.now();
    const killAt = Array.from({ length: kills }, () => random() * durationMs).sort((a, b) => a - b);
    const markAt = Array.from({ length: markers }, (_, i) => ((i + random()) / markers) * durationMs);
    let nextKill = 0;
    let nextMark = 0;
    let killed = 0;
    while (Date.now() - started < durationMs) {
      const elapsed = Date.now() - started;
      while (nextMark < markAt.length && (markAt[nextMark] as number) <= elapsed) rig.mark(nextMark++);
      if (nextKill < killAt.length && (killAt[nextKill] as number) <= elapsed) {
        nextKill += 1;
        daemon.kill('SIGKILL');
        await daemon.exited;
        killed += 1;
        daemon = await rig.start();
      }
      await sleep(20);
    }
    while (nextMark < markAt.length) rig.mark(nextMark++);
    const generated = rig.ledger.ledger.stats().transactions;
    ctx.log(`${SUITE}: ${killed} kills over ${transactions.toLocaleString('en')} transactions; settling`);
    const result = await rig.settle(90_000);
    const counts = receivedMarkers(rig.slack.accepted());
    const ids = alertIdsByMarker(rig.slack.accepted());
    const unrecognisable = [...counts].filter(([m, n]) => n > 1 && (ids.get(m)?.size ?? 0) !== 1).length;
    return [
      figure(SUITE, 'transactions during the kills', generated),
      figure(SUITE, 'kills (SIGKILL, restarted on the same state)', killed),
      figure(SUITE, 'expected alerts (ground truth)', result.expected),
      lostAlerts(SUITE, result),
      checked(SUITE, 'duplicate alerts', result.duplicates, '<=', killed, {
        note: 'target 0, at most one per kill',
      }),
      checked(SUITE, 'duplicates not recognisable by their alert id', unrecognisable, '==', 0),
      checked(SUITE, 'alerts not in the ground truth', result.unexpected.length, '==', 0),
    ];
  } finally {
    await rig.close();
  }
}

export const kill9: Scenario = { n: 1, name: 'kill -9 at random points', run };
