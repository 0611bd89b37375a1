// Bench 4, memory: RSS of `ledger-sentinel run` (a child process, sampled from /proc every second) while it
// tails 1,000,000 transactions (--quick: 100,000) with 10,000 watched accounts and 100 rules, global strategy.
// The rules are `typical` (bench/lib/rule-set.ts: each behind a count window, so alerts are rare but every rule
// keeps window state per account); with `storm` rules nearly every record alerts (see docs/performance.md).
// The living ledger runs in a third process (bench/lib/sim-process.ts) at 1,000 TPS in real time, so the run takes
// about 17 minutes; the daemon's request budget is raised to 200/s so it can keep up (a throughput run, not the
// public node). Targets: ≤ 200 MB at the end, flat (not growing) over the second half (sampler.ts defines it).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import {
  chartNodeOptions,
  imageEnvText,
  metricSum,
  metricsText,
  rssMiB,
  spawnSentinel,
  REPO,
  until,
} from './lib/daemon-process.js';
import { figure, maxOf, round, type Figure } from './lib/figures.js';
import { TARGETS, checkedTarget } from './targets.js';
import { isMain, runStandalone, type BenchOptions } from './lib/options.js';
import { ruleFileText, type Selectivity } from './lib/rule-set.js';
import { liveHeapLateQuarters, sample, secondHalfGrowth, type Sample } from './lib/sampler.js';
import { sentinelDir } from './lib/sentinel-config.js';

const SUITE = '4 memory';
const TPS = 1_000;

async function startSimProcess(options: object) {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', 'bench/lib/sim-process.ts', JSON.stringify(options)],
    {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { child, ...(JSON.parse(line) as { url: string; startMs: number }) };
}

export async function memoryBench(
  options: BenchOptions,
  selectivity: Selectivity = 'typical',
): Promise<Figure[]> {
  const transactions = options.quick ? 100_000 : 1_000_000;
  // Real time: the engine expires window state on ticks of the wall clock, so a ledger clock running ahead of it
  // would keep every group alive for the whole run and measure growth no deployment sees.
  const speed = 1;
  const sim = await startSimProcess({
    seed: 'bench-memory',
    tps: TPS,
    lagMs: 2_000,
    accounts: 20_000,
    speed,
    maxTransactions: transactions,
  });
  const dir = sentinelDir('ledger-sentinel-bench-memory-');
  // The alerts' receiver: answers 200 and keeps nothing but a count.
  let delivered = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      delivered += 1;
      res.end('ok');
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const samples: Sample[] = [];
  try {
    dir.writeConfig({
      ledgerUrl: sim.url,
      accounts: Array.from({ length: 10_000 }, (_, i) => `0.0.${1001 + 2 * i}`),
      notifiers: `  ops: { kind: webhook, url: "${hook}", signing_key: bench, group_wait: 10s }`,
      pollInterval: '1s',
      overlap: '3s',
      startSeconds: Math.floor(sim.startMs / 1000),
      requestsPerSecond: 200,
    });
    dir.writeRule('rules.yaml', ruleFileText(100, 'ops', 0, selectivity));
    const daemon = spawnSentinel(['run', '--config', dir.configPath], { compiled: true });
    const url = await daemon.httpUrl();
    const atStart = rssMiB(daemon.pid);
    const stats = async () =>
      (await (await fetch(`${sim.url}/_sim/stats`)).json()) as {
        counts?: { transactions: number };
        transactions?: number;
      };
    let generated = 0;
    let still = 0;
    const started = Date.now();
    for (;;) {
      await new Promise((r) => setTimeout(r, 1_000));
      const s = await stats();
      generated = s.counts?.transactions ?? s.transactions ?? 0;
      const last = samples.at(-1);
      const next = await sample(daemon.pid, url);
      samples.push(next);
      if (samples.length % 10 === 0)
        options.log(
          `${SUITE}: ${generated.toLocaleString('en')} generated, ${next.recordsProcessed.toLocaleString('en')} handed over, outbox ${next.outboxDepth}, notifications ${next.notifications}, RSS ${next.rssMiB} MiB, V8 heap ${next.heapUsedMiB} of ${next.heapTotalMiB} MiB`,
        );
      still =
        generated >= transactions && last && next.recordsProcessed === last.recordsProcessed ? still + 1 : 0;
      if (still >= 15 || Date.now() - started > 30 * 60_000) break;
    }
    const metrics = await metricsText(url);
    for (const line of metrics.split('\n'))
      if (/^ledger_sentinel_(notifications_total|dead_letters_total|outbox_depth)\{/.test(line))
        options.log(line);
    daemon.kill('SIGTERM');
    await until(() => daemon.child.exitCode !== null, 20_000);
    const end = samples.at(-1);
    const peak = maxOf(samples.map((s) => s.rssMiB));
    const [liveThird, liveLast] = liveHeapLateQuarters(samples);
    return [
      figure(SUITE, 'transactions generated and tailed', generated, {
        note: `10,000 accounts, 100 ${selectivity} rules, ${round((Date.now() - started) / 60_000, 1)} min`,
      }),
      figure(SUITE, 'records handed to the rules', end?.recordsProcessed ?? NaN, {
        note: `${metricSum(metrics, 'ledger_sentinel_alerts_total')} alerts, ${delivered} webhook posts`,
      }),
      figure(SUITE, 'RSS once started (config, 10,000 accounts, rules loaded)', atStart, {
        unit: 'MiB',
        note: `compiled dist/, NODE_OPTIONS ${chartNodeOptions()}, ${imageEnvText()}`,
      }),
      figure(SUITE, 'RSS at the end', end?.rssMiB ?? NaN, { unit: 'MiB' }),
      // The goal bounds the RSS all along, so the maximum of the samples is checked, not the last one.
      checkedTarget(SUITE, 'RSS max', peak, TARGETS.memoryRssMaxMiB, {
        unit: 'MiB',
        note: `200 MB = 190.7 MiB; ${samples.length} samples`,
      }),
      figure(SUITE, 'V8 heap in use / committed at the end', end?.heapUsedMiB ?? NaN, {
        unit: 'MiB',
        note: `${end?.heapTotalMiB ?? NaN} MiB committed`,
      }),
      checkedTarget(
        SUITE,
        'RSS growth over the second half',
        round(secondHalfGrowth(samples), 1),
        TARGETS.memoryGrowthMiB,
        {
          unit: 'MiB',
          note: 'least-squares slope × duration',
        },
      ),
      figure(SUITE, 'V8 heap in use, lowest sample of the last quarter', liveLast, {
        unit: 'MiB',
        note: `third quarter ${liveThird} MiB: the live set, without the GC sawtooth`,
      }),
    ];
  } finally {
    receiver.close();
    sim.child.kill('SIGTERM');
    await once(sim.child, 'exit');
    dir.remove();
  }
}

if (isMain(import.meta.url)) await runStandalone(memoryBench);
