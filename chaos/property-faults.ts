// Scenario 15: property-based faults (issue 14). fast-check draws fault plans from every fault kind — query-service
// delays, trickled bodies, resets, 429/5xx with any Retry-After, duplicated and reordered records, far-future and
// malformed records, endless next links; Slack and SMTP delays, 429/5xx, resets, refusals — and each plan is one
// run of the real daemon (test/helpers/faults/fault-world.ts). Every run must deliver each marker exactly once
// per channel, keep the clean streams moving, answer /healthz within 1 s and keep memory bounded.
//
// The seed is random unless FC_SEED is set; every failing run prints `FC_SEED=… FC_PATH=…`, which replays it.
import { readFileSync } from 'node:fs';
import { checked, failed, figure, round, type Figure } from '../bench/lib/figures.js';
import {
  CLEAN_STREAM_BOUND_MS,
  HEAP_BOUND_MIB,
  HEALTHZ_BOUND_MS,
  RSS_BOUND_MIB,
} from '../test/helpers/faults/fault-invariants.js';
import { FAULT_KINDS } from '../test/helpers/faults/fault-plan.js';
import { alertTally } from '../test/helpers/faults/alert-tally.js';
import { checkFaultProperty, seedFromEnv, type FaultRun } from '../test/helpers/faults/fault-property.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';

const SUITE = '15 property-based faults';

function sum(runs: readonly FaultRun[], of: (run: FaultRun) => number): number {
  return runs.reduce((n, r) => n + of(r), 0);
}

function max(runs: readonly FaultRun[], of: (run: FaultRun) => number): number {
  return runs.reduce((n, r) => Math.max(n, of(r)), 0);
}

function deliveryTotals(run: FaultRun): { lost: number; duplicates: number; unexpected: number } {
  const { expected, channels } = run.result.observations;
  const tallies = channels.map((c) => alertTally(expected, c.bodies));
  return {
    lost: tallies.reduce((n, t) => n + t.lost.length, 0),
    duplicates: tallies.reduce((n, t) => n + t.duplicates.length, 0),
    unexpected: tallies.reduce((n, t) => n + t.unexpected.length + t.stray, 0),
  };
}

function worstCleanLatency(run: FaultRun): number {
  const values = [...run.result.observations.cleanLatencyMs.values()];
  return values.some((v) => v === undefined) ? Infinity : Math.max(0, ...(values as number[]));
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const { seed, path } = seedFromEnv(process.env, Math.floor(Math.random() * 2 ** 31));
  ctx.log(`seed ${seed}${path ? `, path ${path}` : ''}: replay a run with FC_SEED=<seed> FC_PATH=<path>`);
  const report = await checkFaultProperty({
    kinds: FAULT_KINDS,
    numRuns: ctx.quick ? 3 : 10,
    seed,
    ...(path === undefined ? {} : { path }),
    world: ctx.quick
      ? { markers: 8, durationMs: 6_000, faultShare: 0.7, settleMs: 40_000 }
      : { markers: 24, durationMs: 20_000, faultShare: 0.75, settleMs: 60_000 },
    log: ctx.log,
    collectAll: true,
  });
  for (const r of report.runs)
    ctx.session.outputs.push({
      label: `fault run ${r.replay}`,
      text: readFileSync(r.result.logFile, 'utf8'),
    });
  const broken = report.runs.some((r) => r.result.violations.length > 0);
  // A run that threw (the daemon never started) checked nothing: that is a failure of its own.
  const aborted = report.failed && !broken ? [failed(SUITE, new Error(report.failure))] : [];
  return [...figuresOf(report.runs, seed), ...aborted];
}

// One figure per invariant in a single flat list: long only because prettier wraps each call.
function figuresOf(runs: readonly FaultRun[], seed: number): Figure[] {
  const failing = runs.filter((r) => r.result.violations.length > 0);
  const latency = max(runs, worstCleanLatency);
  return [
    figure(SUITE, 'fault plans run', runs.length, { note: `seed ${seed}` }),
    checked(SUITE, 'runs breaking an invariant', failing.length, '==', 0, {
      ...(failing.length ? { note: failing.map((r) => r.replay).join(', ') } : {}),
    }),
    checked(
      SUITE,
      'lost alerts (all runs, all channels)',
      sum(runs, (r) => deliveryTotals(r).lost),
      '==',
      0,
    ),
    checked(
      SUITE,
      'duplicate deliveries',
      sum(runs, (r) => deliveryTotals(r).duplicates),
      '==',
      0,
    ),
    checked(
      SUITE,
      'unexpected alerts',
      sum(runs, (r) => deliveryTotals(r).unexpected),
      '==',
      0,
    ),
    checked(
      SUITE,
      'clean stream: slowest marker to the clean channel',
      round(latency / 1000, 1),
      '<=',
      CLEAN_STREAM_BOUND_MS / 1000,
      { unit: 's', ...(Number.isFinite(latency) ? {} : { note: 'a clean marker never arrived' }) },
    ),
    checked(
      SUITE,
      'slowest /healthz',
      Math.round(max(runs, (r) => r.result.observations.liveness.maxHealthzMs)),
      '<=',
      HEALTHZ_BOUND_MS,
      { unit: 'ms' },
    ),
    checked(
      SUITE,
      '/healthz probes failed',
      sum(runs, (r) => r.result.observations.liveness.failures),
      '==',
      0,
    ),
    checked(
      SUITE,
      'max RSS',
      round(
        max(runs, (r) => r.result.observations.liveness.maxRssMiB),
        0,
      ),
      '<=',
      RSS_BOUND_MIB,
      { unit: 'MiB' },
    ),
    checked(
      SUITE,
      'max V8 heap used',
      round(
        max(runs, (r) => r.result.observations.liveness.maxHeapMiB),
        0,
      ),
      '<=',
      HEAP_BOUND_MIB,
      { unit: 'MiB' },
    ),
  ];
}

export const propertyFaults: Scenario = { n: 15, name: 'property-based faults', run };
