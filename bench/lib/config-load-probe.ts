// Child process of bench/config-memory.bench.ts: loads one config file and its rules (`loadAll`, offline) and
// prints what it cost as one JSON line. Run with --expose-gc, alone in its process, so nothing else is counted.
import { readFileSync } from 'node:fs';
import { loadAll } from '../../src/app/load-all.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const configPath = process.argv[2] ?? '';
gc();
const before = process.memoryUsage();
const started = performance.now();
const cpu = process.cpuUsage();
const result = loadAll(configPath, { env: {}, offline: true });
const ms = performance.now() - started;
const { user, system } = process.cpuUsage(cpu);
if (!result.ok) throw new Error(`config did not load: ${JSON.stringify(result.issues.slice(0, 3))}`);
gc();
const after = process.memoryUsage();
// VmHWM: the most resident memory the process ever had, the load's peak included.
const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
console.log(
  JSON.stringify({
    accounts: result.loaded.accounts.length,
    ms,
    // CPU time of the load (GC included): on a loaded machine far steadier than the wall clock.
    cpuMs: (user + system) / 1000,
    retainedHeap: after.heapUsed - before.heapUsed,
    heapUsed: after.heapUsed,
    rss: after.rss,
    peakRss: hwmKb * 1024,
  }),
);
