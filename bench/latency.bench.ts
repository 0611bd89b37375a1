// Bench 3, detection latency: from a record becoming visible on the simulator (its visible_at in the ground truth)
// to the alert arriving at the local Slack-like sink, p50 / p99, with `ledger-sentinel run` as a child process
// (poll interval 1 s, default ±10 % jitter, global tail). Target: p99 ≤ poll interval + 250 ms.
import { markersOf } from '../chaos/lib/markers.js';
import { startRig } from '../chaos/lib/rig.js';
import { newSession } from '../chaos/lib/scenario.js';
import { sleep } from '../chaos/lib/seeded.js';
import { figure, percentile, round, type Figure } from './lib/figures.js';
import { LATENCY_POLL_MS, TARGETS, checkedTarget } from './targets.js';
import { isMain, runStandalone, type BenchOptions } from './lib/options.js';

const SUITE = '3 latency';
const POLL_MS = LATENCY_POLL_MS;

export async function latencyBench(options: BenchOptions): Promise<Figure[]> {
  const markers = options.quick ? 20 : 100;
  const rig = await startRig(
    { ...options, session: newSession() },
    {
      ledger: { seed: 'bench-latency', tps: 50, lagMs: 500 },
      watched: 10,
      markers,
      config: { pollInterval: `${POLL_MS}ms`, strategy: 'global' },
    },
  );
  const arrivals = new Map<string, number>();
  try {
    await rig.start();
    await sleep(3_000);
    for (let n = 0; n < markers; n++) {
      rig.mark(n);
      await sleep(300 + Math.random() * 900);
    }
    const result = await rig.settle(60_000, () => {
      // Arrival times: the sink records requests in order; the log has the arrival time of each.
      rig.slack.sink.requests.forEach((r, i) => {
        const at = rig.slack.log[i]?.at;
        if (r.answer.status !== 200 || at === undefined) return;
        for (const m of markersOf(r.body)) if (!arrivals.has(m)) arrivals.set(m, at);
      });
      return rig.slack.accepted();
    });
    const latencies: number[] = [];
    for (const [marker, at] of arrivals) {
      const truth = rig.ledger.ledger.truth.tagged(marker)[0];
      if (truth) latencies.push(at - Number(truth.visibleAt / 1_000_000n));
    }
    options.log(
      `${SUITE}: ${latencies.length} alerts, ${result.lost.length} lost; min ${round(Math.min(...latencies), 0)} ms, max ${round(Math.max(...latencies), 0)} ms`,
    );
    return [
      figure(SUITE, 'alerts measured', latencies.length, { note: `poll interval ${POLL_MS} ms` }),
      figure(SUITE, 'visible → Slack p50', round(percentile(latencies, 50), 0), { unit: 'ms' }),
      figure(SUITE, 'visible → Slack p90', round(percentile(latencies, 90), 0), { unit: 'ms' }),
      checkedTarget(SUITE, 'visible → Slack p99', round(percentile(latencies, 99), 0), TARGETS.latencyP99Ms, {
        unit: 'ms',
      }),
      checkedTarget(SUITE, 'lost alerts', result.lost.length, TARGETS.latencyLost),
    ];
  } finally {
    await rig.close();
  }
}

if (isMain(import.meta.url)) await runStandalone(latencyBench);
