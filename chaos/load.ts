// Scenario 8: load — 10,000 watched accounts (of 20,000 in the traffic) at 1,000 TPS for 10 minutes
// (--quick: 1 minute), global strategy, 50 generated rules plus marker rules. Staleness bounded, memory flat
// over the second half, no error logged, no marker lost. Default tail settings (immediate global mode, 10 s
// overlap: about 20 requests/s at 1,000 TPS) and the daemon as deployed: compiled, with the chart's NODE_OPTIONS.
import { checked, figure, maxOf, percentile, round, type Figure } from '../bench/lib/figures.js';
import { ruleFileText } from '../bench/lib/rule-set.js';
import { sample, secondHalfGrowth, type Sample } from '../bench/lib/sampler.js';
import { runMarkers } from './lib/marker-run.js';
import { startRig } from './lib/rig.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';

const SUITE = '8 load';
const STALENESS_BOUND_S = 15;
const FLAT_BOUND_MIB = 20;

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const durationMs = ctx.quick ? 60_000 : 600_000;
  const markers = ctx.quick ? 20 : 100;
  const rig = await startRig(ctx, {
    ledger: { seed: 'chaos-load', tps: 1_000, lagMs: 2_000, traffic: { accounts: 20_000 } },
    watched: 10_000,
    markers,
    config: { pollInterval: '2s' },
    compiled: true,
  });
  rig.dir.writeRule('generated.yaml', ruleFileText(50, 'ops-slack'));
  try {
    const daemon = await rig.start();
    const url = await daemon.httpUrl();
    const samples: Sample[] = [];
    let lastSample = 0;
    await runMarkers(rig, {
      durationMs,
      markers,
      async tick() {
        if (Date.now() - lastSample < 5_000) return;
        lastSample = Date.now();
        samples.push(await sample(daemon.pid, url));
      },
    });
    const result = await rig.settle(60_000);
    const warm = samples.slice(Math.min(2, samples.length - 1));
    const staleness = warm.map((s) => s.maxStalenessS).filter((s) => Number.isFinite(s));
    const errors = (daemon.stdout() + daemon.stderr()).split('\n').filter((l) => /"level":(50|60)/.test(l));
    if (errors[0]) ctx.log(`${SUITE}: first error line ${errors[0].slice(0, 300)}`);
    const generated = rig.ledger.ledger.stats().transactions;
    return [
      figure(SUITE, 'transactions generated', generated, {
        note: `${round(durationMs / 60_000, 0)} min at 1,000 TPS`,
      }),
      figure(SUITE, 'records handed to the rules', samples.at(-1)?.recordsProcessed ?? NaN),
      checked(
        SUITE,
        'max staleness (10 stalest streams, after 10 s)',
        round(maxOf(staleness), 1),
        '<=',
        STALENESS_BOUND_S,
        { unit: 's', note: `p50 of samples ${round(percentile(staleness, 50), 1)} s` },
      ),
      figure(SUITE, 'RSS at the end', samples.at(-1)?.rssMiB ?? NaN, { unit: 'MiB' }),
      checked(
        SUITE,
        'RSS growth over the second half',
        round(secondHalfGrowth(samples), 1),
        '<=',
        FLAT_BOUND_MIB,
        { unit: 'MiB', note: 'least-squares slope × duration' },
      ),
      checked(SUITE, 'error log lines', errors.length, '==', 0),
      checked(SUITE, 'daemon still running', daemon.child.exitCode === null ? 1 : 0, '==', 1),
      checked(SUITE, 'lost marker alerts', result.lost.length, '==', 0),
      checked(SUITE, 'duplicate marker alerts', result.duplicates, '==', 0),
    ];
  } finally {
    await rig.close();
  }
}

export const load: Scenario = { n: 8, name: 'load: 10,000 accounts at 1,000 TPS', run };
