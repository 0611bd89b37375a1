// Scenario 2: the query service misbehaves — 10 % 5xx, 5 % 429 with Retry-After, 2 % answers slower than the
// daemon's header timeout, 1 % malformed JSON, 1 % connection resets, and 5 % of rows visible 6 s late — while
// markers are injected. Lost 0, duplicates 0.
import { checked, figure, round, type Figure } from '../bench/lib/figures.js';
import { metricSum, metricsText } from '../bench/lib/daemon-process.js';
import { FaultProfile } from '@ledger-sentinel/simulator/faults';
import { lostAlerts } from './lib/markers.js';
import { runMarkers } from './lib/marker-run.js';
import { startRig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';

const SUITE = '2 query faults';

export const QUERY_FAULTS = FaultProfile.parse({
  name: 'chaos-issue-8',
  routes: {
    '*': {
      server_error: 0.05,
      unavailable: 0.05,
      rate_limit: 0.05,
      retry_after_seconds: 1,
      slow: 0.02,
      slow_ms: 2_500,
      malformed: 0.01,
      reset: 0.01,
    },
  },
  late_visibility: { fraction: 0.05, delay_ms: 6_000 },
});

/**
 * The fault kinds of QUERY_FAULTS that the run's request count made likely (rate × requests ≥ 5, so a correct
 * injector misses one with probability below 1 %) yet the ledger never injected: a run that injected none of a
 * kind proved nothing about it.
 */
function missingKinds(faults: { requests: number; byKind: Readonly<Record<string, number>> }): number {
  const rates = QUERY_FAULTS.routes['*'];
  if (!rates) return Number.NaN;
  const kinds = { ...rates, slow: rates.slow } as Record<string, unknown>;
  const names = ['rate_limit', 'server_error', 'unavailable', 'reset', 'malformed', 'truncated', 'slow'];
  return names.filter((k) => {
    const rate = typeof kinds[k] === 'number' ? (kinds[k] as number) : 0;
    return rate * faults.requests >= 5 && (faults.byKind[k] ?? 0) === 0;
  }).length;
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const markers = ctx.quick ? 40 : 200;
  const durationMs = ctx.quick ? 30_000 : 180_000;
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-faults', tps: 200, lagMs: 1_000, faults: QUERY_FAULTS },
    watched: 50,
    markers,
    config: {
      pollInterval: '1s',
      overlap: '10s',
      ledgerExtra: '  timeouts: { connect: 1s, headers: 1s, body: 2s }',
    },
  });
  try {
    const daemon = await rig.start();
    const url = await daemon.httpUrl();
    await runMarkers(rig, { durationMs, markers });
    const result = await rig.settle(60_000);
    const metrics = await metricsText(url);
    const lag = metricSum(metrics, 'ledger_sentinel_query_service_lag_seconds');
    const failedPolls = (daemon.stdout().match(/"msg":"poll failed"/g) ?? []).length;
    const faults = rig.ledger.faultStats();
    const injected = Object.values(faults.byKind).reduce((a, b) => a + b, 0);
    return [
      figure(SUITE, 'query-service requests', faults.requests),
      // The scenario is about faults: a run in which the ledger injected none (or only some kinds) proved nothing
      // about the others.
      checked(SUITE, 'fault kinds expected ≥ 5 times but never injected', missingKinds(faults), '==', 0, {
        note: `${injected} faulted: ${Object.entries(faults.byKind)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      }),
      figure(SUITE, 'expected alerts (ground truth)', result.expected),
      figure(SUITE, 'query-service lag seen by the daemon at the end', round(lag, 1), {
        unit: 's',
        note: `${failedPolls} failed polls (a failed poll re-reads its chain from the safe cursor)`,
      }),
      lostAlerts(SUITE, result),
      checked(SUITE, 'duplicate alerts', result.duplicates, '==', 0),
      checked(SUITE, 'alerts not in the ground truth', result.unexpected.length, '==', 0),
    ];
  } finally {
    await rig.close();
  }
}

export const queryFaults: Scenario = { n: 2, name: 'query-service fault profile', run };
