// Bench 9, config loading memory (issue #31): what loading 10,000, 30,000 and 100,000 watched accounts costs.
// Each size is a config file of realistic entries (id, name, four labels) and 100 `typical` rules, measured three
// ways, each in a process of its own:
// - `loadAll` (config + rules, offline) in a child with --expose-gc: time, heap retained after a full GC (what the
//   daemon keeps), and the peak RSS of the process (VmHWM);
// - `ledger-sentinel check --offline` as deployed (compiled dist/, the chart's NODE_OPTIONS with its
//   --max-old-space-size, the image's MALLOC_* settings): exit code, seconds, RSS max sampled every 100 ms;
// - `ledger-sentinel run` as deployed against the living ledger: spawn → "started" logged → /readyz 200 (first
//   poll done), and the RSS then.
// Bytes per account = the retained heap's growth from the smallest size to the largest, per account added.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { chartNodeOptions, imageEnvText, REPO, rssMiB, spawnSentinel, until } from './lib/daemon-process.js';
import { figure, round, type Figure } from './lib/figures.js';
import { isMain, runStandalone, type BenchOptions } from './lib/options.js';
import { ruleFileText } from './lib/rule-set.js';
import { TARGETS, checkedTarget } from './targets.js';

const SUITE = '9 config memory';
const RULES = 100;
const TEAMS = ['payments', 'treasury', 'custody', 'exchange', 'staking', 'payroll', 'market-making', 'ops'];

/** `n` accounts as the config's `accounts:` list: id, name and four labels each, like a real watch list. */
export function accountsYaml(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const team = TEAMS[i % TEAMS.length] as string;
    lines.push(
      `  - id: 0.0.${100_000 + i}`,
      `    name: ${team}-wallet-${i}`,
      `    labels: { team: ${team}, env: prod, tier: t${i % 3}, owner: owner-${i % 200} }`,
    );
  }
  return lines.join('\n');
}

function writeConfig(dir: string, n: number, ledgerUrl: string): string {
  const path = join(dir, `config-${n}.yaml`);
  writeFileSync(
    path,
    `ledger:
  base_url: ${ledgerUrl}
  requests_per_second: 50
accounts:
${accountsYaml(n)}
tail:
  strategy: global
  poll_interval: 2s
  start: "${Math.floor(Date.now() / 1000) - 2}"
rules: { paths: [rules/*.yaml] }
notifiers:
  ops: { kind: slack, webhook_url: "http://127.0.0.1:9/services/T/B/x" }
state: { dir: ${join(dir, `state-${n}`)} }
http: { host: 127.0.0.1, port: 0 }
daemon: { watch_files: false, shutdown_grace: 5s }
self_monitoring: { enabled: false }
`,
  );
  return path;
}

interface Probe {
  readonly accounts: number;
  readonly ms: number;
  readonly cpuMs: number;
  readonly retainedHeap: number;
  readonly rss: number;
  readonly peakRss: number;
}

function probe(configPath: string): Probe {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--conditions=source', '--import', 'tsx', 'bench/lib/config-load-probe.ts', configPath],
    { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 20, timeout: 600_000 },
  );
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Probe;
}

interface Run {
  readonly code: number | null;
  readonly seconds: number;
  readonly rssMaxMiB: number;
}

/** A child as deployed until it exits (or `ready` says it is up), sampling its RSS every 100 ms. */
async function asDeployed(argv: string[], ready?: (url: string) => Promise<boolean>): Promise<Run> {
  const t0 = Date.now();
  const child = spawnSentinel(argv, { compiled: true });
  let rssMax = 0;
  const timer = setInterval(() => {
    try {
      rssMax = Math.max(rssMax, rssMiB(child.pid));
    } catch {
      // The process has exited: its last sample stands.
    }
  }, 100);
  try {
    if (!ready) {
      const { code } = await child.exited;
      return { code, seconds: (Date.now() - t0) / 1000, rssMaxMiB: rssMax };
    }
    const url = await child.httpUrl(600_000);
    await until(() => ready(url), 600_000, 50);
    const seconds = (Date.now() - t0) / 1000;
    rssMax = Math.max(rssMax, rssMiB(child.pid));
    child.kill('SIGTERM');
    await child.exited;
    return { code: 0, seconds, rssMaxMiB: rssMax };
  } finally {
    clearInterval(timer);
    child.kill('SIGKILL');
  }
}

const readyz = async (url: string) => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;

export async function configMemoryBench(options: BenchOptions): Promise<Figure[]> {
  const sizes = options.quick ? [10_000, 30_000] : [10_000, 30_000, 100_000];
  const dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-bench-config-'));
  const ledger = await startLivingLedger({ seed: 'bench-config', tps: 50, lagMs: 200, autoAdvanceMs: 200 });
  mkdirSync(join(dir, 'rules'));
  writeFileSync(join(dir, 'rules', 'rules.yaml'), ruleFileText(RULES, 'ops', 0, 'typical'));
  const figures: Figure[] = [];
  const probes: Probe[] = [];
  try {
    for (const n of sizes) {
      const configPath = writeConfig(dir, n, ledger.url);
      const loaded = probe(configPath);
      probes.push(loaded);
      const check = await asDeployed(['check', '--offline', '--config', configPath]);
      const run = await asDeployed(['run', '--config', configPath], readyz);
      options.log(
        `${n} accounts: load ${round(loaded.ms, 0)} ms (CPU ${round(loaded.cpuMs, 0)} ms), retained ${mib(loaded.retainedHeap)} MiB; check exit ` +
          `${check.code} in ${round(check.seconds, 1)} s, RSS max ${check.rssMaxMiB} MiB; run ready in ` +
          `${round(run.seconds, 1)} s, RSS ${run.rssMaxMiB} MiB`,
      );
      figures.push(...sizeFigures(n, loaded, check, run));
    }
  } finally {
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return [...figures, ...growthFigures(probes)];
}

function mib(bytes: number): number {
  return round(bytes / 2 ** 20, 1);
}

function sizeFigures(n: number, loaded: Probe, check: Run, run: Run): Figure[] {
  const k = `${n / 1000}k accounts`;
  const deployed = `as deployed (NODE_OPTIONS ${chartNodeOptions()}, ${imageEnvText()})`;
  return [
    figure(SUITE, `${k}: loadAll (config + ${RULES} rules)`, round(loaded.ms, 0), {
      unit: 'ms',
      note: `CPU ${round(loaded.cpuMs, 0)} ms (GC included)`,
    }),
    figure(SUITE, `${k}: heap retained after loading`, mib(loaded.retainedHeap), {
      unit: 'MiB',
      note: `${round(loaded.retainedHeap / n, 0)} B per account; the process's peak RSS ${mib(loaded.peakRss)} MiB`,
    }),
    checkedTarget(SUITE, `${k}: check --offline exit code`, check.code ?? -1, TARGETS.configCheckExit, {
      note: `${deployed}; ${round(check.seconds, 1)} s, RSS max ${check.rssMaxMiB} MiB`,
    }),
    checkedTarget(SUITE, `${k}: run, spawn → /readyz 200`, round(run.seconds, 1), TARGETS.configRunReadyS, {
      unit: 's',
      note: deployed,
    }),
    checkedTarget(SUITE, `${k}: run, RSS max until ready`, run.rssMaxMiB, TARGETS.configRunRssMiB, {
      unit: 'MiB',
    }),
  ];
}

function growthFigures(probes: readonly Probe[]): Figure[] {
  const first = probes[0];
  const last = probes.at(-1);
  if (!first || !last || last.accounts === first.accounts) return [];
  const perAccount = (last.retainedHeap - first.retainedHeap) / (last.accounts - first.accounts);
  return [
    checkedTarget(
      SUITE,
      `retained heap per account added (${first.accounts / 1000}k → ${last.accounts / 1000}k)`,
      round(perAccount, 0),
      TARGETS.configBytesPerAccount,
      { unit: 'B' },
    ),
  ];
}

if (isMain(import.meta.url)) await runStandalone(configMemoryBench);
