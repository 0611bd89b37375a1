// `npm run bench`: every benchmark of issue #8 in one run, a table on stdout and bench/results.json with the
// machine, its load average and the date. Never part of `npm test`.
//
//   node --expose-gc --conditions=source --import tsx bench/run.ts [--quick] [--only pipeline,requests,memory,startup,latency,status,peak,backends,config]
//
// Each ratio is measured side by side inside its own benchmark. Figures from a shared, loaded machine are noisy:
// the load average before and after the run is recorded with them.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { failed, formatTable, type Figure } from './lib/figures.js';
import { describeMachine, machine } from './lib/machine.js';
import type { BenchOptions } from './lib/options.js';
import { pipelineBench } from './pipeline.bench.js';
import { requestsBench } from './lib/requests.js';
import { memoryBench } from './memory.bench.js';
import { startupBench } from './startup.bench.js';
import { latencyBench } from './latency.bench.js';
import { statusPageBench } from './status-page.bench.js';
import { peakBench } from './peak.bench.js';
import { backendsBench } from './backends.bench.js';
import { configMemoryBench } from './config-memory.bench.js';

interface Results {
  /** The machine of the latest run. */
  machine: ReturnType<typeof machine>;
  /** Per benchmark: the run that measured its figures (date and load average in `machine`). */
  runs: Record<
    string,
    {
      machine: ReturnType<typeof machine>;
      loadAverageAfter: number[];
      quick: boolean;
      command: string;
      /** `git rev-parse --short HEAD`, with `+changes` when the work tree differed from it. */
      commit?: string;
      seconds: number;
    }
  >;
  figures: (Figure & { bench: string })[];
}

const BENCHES: Record<string, (options: BenchOptions) => Promise<Figure[]>> = {
  pipeline: pipelineBench,
  requests: requestsBench,
  latency: latencyBench,
  memory: memoryBench,
  startup: startupBench,
  status: statusPageBench,
  peak: peakBench,
  backends: backendsBench,
  config: configMemoryBench,
};

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string', default: new URL('./results.json', import.meta.url).pathname },
  },
});
const only = values.only?.split(',').map((s) => s.trim());
const unknown = only?.filter((name) => !(name in BENCHES)) ?? [];
if (unknown.length > 0) {
  console.error(
    `bench: unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHES).join(', ')}`,
  );
  process.exit(2);
}

const host = machine();
console.log(`ledger-sentinel benchmarks${values.quick ? ' (--quick)' : ''}: ${describeMachine(host)}`);
const figures: (Figure & { bench: string })[] = [];
const timings: Record<string, number> = {};
for (const [name, bench] of Object.entries(BENCHES)) {
  if (only && !only.includes(name)) continue;
  const started = Date.now();
  console.log(`\n▶ ${name}`);
  try {
    const measured = await bench({ quick: values.quick, log: (line) => console.log(`  ${line}`) });
    figures.push(...measured.map((f) => ({ ...f, bench: name })));
  } catch (err) {
    figures.push({ ...failed(name, err), bench: name });
    console.error(err);
  }
  timings[name] = Math.round((Date.now() - started) / 100) / 10;
}

console.log(`\n${formatTable(figures)}`);
const loadAfter = loadavg().map((l) => Math.round(l * 100) / 100);
console.log(`\nload average before ${host.loadAverage.join(' ')}, after ${loadAfter.join(' ')}`);
const command = `node --expose-gc --conditions=source --import tsx bench/run.ts${process.argv.length > 2 ? ` ${process.argv.slice(2).join(' ')}` : ''}`;
const run = { machine: host, loadAverageAfter: loadAfter, quick: values.quick, command, commit: commitOf() };
// With --only, the other benchmarks' figures (and the runs that measured them) are kept from the existing file.
const previous =
  only && existsSync(values.out) ? (JSON.parse(readFileSync(values.out, 'utf8')) as Partial<Results>) : {};
const ran = new Set(Object.keys(timings));
const runs = {
  ...Object.fromEntries(Object.entries(previous.runs ?? {}).filter(([name]) => !ran.has(name))),
};
for (const name of ran) runs[name] = { ...run, seconds: timings[name] ?? NaN };
const results: Results = {
  machine: host,
  runs,
  figures: [...(previous.figures ?? []).filter((f) => !ran.has(f.bench)), ...figures],
};
// Formatted as `prettier --check .` (part of npm test) expects it.
const prettier = await import('prettier');
const options = (await prettier.resolveConfig(values.out)) ?? {};
writeFileSync(values.out, await prettier.format(JSON.stringify(results), { ...options, parser: 'json' }));
console.log(`wrote ${values.out}`);
const failures = figures.filter((f) => f.pass === false).length;
console.log(`${figures.filter((f) => f.pass === true).length} targets met, ${failures} missed`);

/** The commit measured: what a published figure names so that anyone can measure the same code again. */
function commitOf(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const changed = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      encoding: 'utf8',
    });
    return changed.trim() ? `${head}+changes` : head;
  } catch {
    return 'unknown (not a git checkout)';
  }
}
