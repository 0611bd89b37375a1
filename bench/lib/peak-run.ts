// One run of the peak benchmark (bench/peak.bench.ts) at one rate: the replay ledger (the living ledger's traffic,
// pre-serialized; packages/simulator/src/replay-ledger.ts) in its own process at `tps` in real time, the compiled daemon
// beside it (global tail, 10,000 watched accounts, 100 rules), sampled every second from /proc and /metrics.
// Everything before `warmupS` is discarded; the figures are over the rest.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { metricSum, metricsText, REPO, rssMiB, spawnSentinel, until } from './daemon-process.js';
import { cpuSeconds, runQueueSeconds } from './proc-stat.js';
import {
  histogramDelta,
  histogramMean,
  histogramQuantile,
  readHistogram,
  type HistogramReading,
} from './prom-histogram.js';
import { ruleFileText } from './rule-set.js';
import { sentinelDir } from './sentinel-config.js';

export const STALENESS = 'ledger_sentinel_consensus_to_evaluated_seconds';

export interface PeakRunOptions {
  readonly tps: number;
  readonly warmupS: number;
  readonly measureS: number;
  /** The daemon's tail.poll_interval, seconds. */
  readonly pollS: number;
  /** The simulator's record-file cadence and ingestion lag, ms: the service's own share of the staleness. */
  readonly recordFileMs: number;
  readonly lagMs: number;
  readonly maxPagesPerPoll: number;
  /** state.sqlite.synchronous of the daemon; absent: the default. */
  readonly synchronous?: 'full' | 'normal';
  /** Node flags for the daemon besides the chart's NODE_OPTIONS (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  readonly nodeArgs?: readonly string[];
  readonly log: (line: string) => void;
}

export interface PeakRunResult {
  readonly offeredTps: number;
  /** Transactions the daemon read for the first time per second (counted by the replay ledger). */
  readonly handledTps: number;
  /** Pages the daemon asked from history the replay had already dropped: it fell behind by more than retention. */
  readonly prunedRequests: number;
  /** How much further behind now the global cursor fell over the measured window, s (≤ 1 s: flat). */
  readonly growthS: number;
  readonly p50S: number;
  readonly p99S: number;
  readonly recordsPerS: number;
  readonly requestsPerS: number;
  /** Mean duration of one request to the query service, s. */
  readonly requestMeanS: number;
  readonly pagesPerS: number;
  readonly daemonCores: number;
  /** Share of the wall time the daemon's JavaScript thread waited for a CPU (machine contention). */
  readonly daemonStarved: number;
  /** CPU seconds per transaction handled × 10,000: the cores 10,000 TPS costs, whatever the machine's load. */
  readonly coresPer10k: number;
  readonly daemonRssMaxMiB: number;
  readonly simCores: number;
  readonly simRssMaxMiB: number;
  readonly seconds: number;
}

interface Reading {
  readonly at: number;
  readonly daemonCpu: number;
  readonly daemonWait: number;
  readonly simCpu: number;
  readonly rss: number;
  readonly simRss: number;
  /** V8 heap in use and committed, MiB (the daemon's process metrics). */
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly matches: number;
  readonly alerts: number;
  readonly staleness: HistogramReading;
  /** Now minus the global cursor, s (tail_staleness_max_seconds, set once per tail round). */
  readonly behind: number;
  readonly requests: number;
  /** Seconds spent in requests to the query service (the request-duration histogram's sum). */
  readonly requestSeconds: number;
  readonly pages: number;
  readonly records: number;
  /** The replay ledger's count of records read for the first time, and of pages asked from pruned history. */
  readonly firstServed: number;
  readonly prunedRequests: number;
}

async function startSim(tps: number, options: PeakRunOptions) {
  const spec = {
    seed: 'bench-peak',
    tps,
    lagMs: options.lagMs,
    recordFileMs: options.recordFileMs,
    accounts: 20_000,
    // 600,000 records (60 s at 10,000 TPS, about 1.7 GB): the daemon's 10 s sweep window with room to spare.
    retentionMs: Math.max(15_000, Math.min(60_000, Math.round((600_000 / tps) * 1000))),
  };
  const child = spawn(
    process.execPath,
    [
      '--max-old-space-size=4096',
      '--conditions=source',
      '--import',
      'tsx',
      'bench/lib/replay-process.ts',
      JSON.stringify(spec),
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { child, pid: child.pid ?? -1, ...(JSON.parse(line) as { url: string; startMs: number }) };
}

async function startReceiver() {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  return { receiver, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` };
}

interface SimServed {
  served?: { firstServed?: number; prunedRequests?: number };
}

async function read(daemonPid: number, sim: { pid: number; url: string }, httpUrl: string): Promise<Reading> {
  const text = await metricsText(httpUrl).catch(() => '');
  const simPid = sim.pid;
  const served = ((await (await fetch(`${sim.url}/_sim/stats`)).json()) as SimServed).served ?? {};
  return {
    at: Date.now(),
    daemonCpu: cpuSeconds(daemonPid),
    daemonWait: runQueueSeconds(daemonPid),
    simCpu: cpuSeconds(simPid),
    rss: rssMiB(daemonPid),
    simRss: rssMiB(simPid),
    heapUsed: metricSum(text, 'ledger_sentinel_nodejs_heap_size_used_bytes') / 1_048_576,
    heapTotal: metricSum(text, 'ledger_sentinel_nodejs_heap_size_total_bytes') / 1_048_576,
    matches: metricSum(text, 'ledger_sentinel_rule_matches_total'),
    alerts: metricSum(text, 'ledger_sentinel_alerts_total'),
    staleness: readHistogram(text, STALENESS),
    behind: metricSum(text, 'ledger_sentinel_tail_staleness_max_seconds'),
    requests: metricSum(text, 'ledger_sentinel_ledger_requests_total'),
    requestSeconds: metricSum(text, 'ledger_sentinel_ledger_request_duration_seconds_sum'),
    pages: metricSum(text, 'ledger_sentinel_pages_total'),
    records: metricSum(text, 'ledger_sentinel_records_processed_total'),
    firstServed: served.firstServed ?? Number.NaN,
    prunedRequests: served.prunedRequests ?? Number.NaN,
  };
}

export async function runAtRate(options: PeakRunOptions): Promise<PeakRunResult> {
  const { tps, log } = options;
  const sim = await startSim(tps, options);
  log(`${tps.toLocaleString('en')} TPS: replay ledger at ${sim.url} (pid ${sim.pid})`);
  const hook = await startReceiver();
  const dir = sentinelDir('ledger-sentinel-bench-peak-');
  try {
    dir.writeConfig({
      ledgerUrl: sim.url,
      accounts: Array.from({ length: 10_000 }, (_, i) => `0.0.${1001 + 2 * i}`),
      notifiers: `  ops: { kind: webhook, url: "${hook.url}", signing_key: bench, group_wait: 10s }`,
      strategy: 'global',
      pollInterval: `${options.pollS}s`,
      overlap: '10s',
      startSeconds: Math.floor(sim.startMs / 1000),
      // No budget limit: a self-hosted query service.
      requestsPerSecond: 100_000,
      // The default, 100, caps a poll at 10,000 records: at 2 s polls, 5,000 TPS (docs/performance.md).
      tailExtra: `  max_pages_per_poll: ${options.maxPagesPerPoll}`,
      ...(options.synchronous ? { stateExtra: `sqlite: { synchronous: ${options.synchronous} }` } : {}),
    });
    dir.writeRule('rules.yaml', ruleFileText(100, 'ops', 0, 'typical'));
    const daemon = spawnSentinel(['run', '--config', dir.configPath], {
      compiled: true,
      ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    });
    const url = await daemon.httpUrl(120_000).catch((err: unknown) => {
      throw new Error(`the daemon did not start: ${String(err)}\n${daemon.stderr().slice(-2000)}`);
    });
    log(`${tps.toLocaleString('en')} TPS: daemon ${url} (pid ${daemon.pid})`);
    const readings: Reading[] = [];
    const started = Date.now();
    const endAt = started + (options.warmupS + options.measureS) * 1000;
    while (Date.now() < endAt) {
      await new Promise((r) => setTimeout(r, 1_000));
      const r = await read(daemon.pid, sim, url);
      readings.push(r);
      if (readings.length % 15 === 0) {
        const last = readings.at(-16) ?? readings[0]!;
        const d = histogramDelta(last.staleness, r.staleness);
        log(
          `${tps.toLocaleString('en')} TPS, ${Math.round((r.at - started) / 1000)} s: p99 ${histogramQuantile(d, 0.99).toFixed(2)} s, mean age ${histogramMean(d).toFixed(2)} s, daemon ${((r.daemonCpu - last.daemonCpu) / ((r.at - last.at) / 1000)).toFixed(2)} cores, RSS ${r.rss} MiB, heap ${r.heapUsed.toFixed(1)}/${r.heapTotal.toFixed(1)} MiB, ${r.matches} matches, ${r.alerts} alerts, sim ${((r.simCpu - last.simCpu) / ((r.at - last.at) / 1000)).toFixed(2)} cores`,
        );
      }
    }
    daemon.kill('SIGTERM');
    await until(() => daemon.child.exitCode !== null, 30_000);
    return summarize(
      tps,
      readings.filter((r) => r.at >= started + options.warmupS * 1000),
    );
  } finally {
    hook.receiver.close();
    sim.child.kill('SIGTERM');
    await once(sim.child, 'exit');
    dir.remove();
  }
}

/** Least-squares slope of ys against xs. */
function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    sxx += ((xs[i] as number) - mx) ** 2;
  }
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

function summarize(tps: number, readings: readonly Reading[]): PeakRunResult {
  const first = readings[0];
  const last = readings.at(-1);
  if (!first || !last || readings.length < 3) throw new Error('peak run: fewer than 3 samples after warm-up');
  const seconds = (last.at - first.at) / 1000;
  const all = histogramDelta(first.staleness, last.staleness);
  // How far the global cursor is behind now: flat when the daemon keeps up, rising by (1 − handled/offered) per
  // second when it does not.
  const xs = readings.map((r) => (r.at - first.at) / 1000);
  const rise = slope(
    xs,
    readings.map((r) => r.behind),
  );
  const per = (f: (r: Reading) => number) => (f(last) - f(first)) / seconds;
  const handled = Math.round(per((r) => r.firstServed));
  return {
    offeredTps: tps,
    handledTps: handled,
    prunedRequests: last.prunedRequests - first.prunedRequests,
    growthS: rise * seconds,
    p50S: histogramQuantile(all, 0.5),
    p99S: histogramQuantile(all, 0.99),
    recordsPerS: per((r) => r.records),
    requestsPerS: per((r) => r.requests),
    requestMeanS: (last.requestSeconds - first.requestSeconds) / Math.max(1, last.requests - first.requests),
    pagesPerS: per((r) => r.pages),
    daemonCores: per((r) => r.daemonCpu),
    daemonStarved: per((r) => r.daemonWait),
    coresPer10k: handled > 0 ? (per((r) => r.daemonCpu) / handled) * 10_000 : Number.NaN,
    daemonRssMaxMiB: Math.max(...readings.map((r) => r.rss)),
    simCores: per((r) => r.simCpu),
    simRssMaxMiB: Math.max(...readings.map((r) => r.simRss)),
    seconds,
  };
}
