// Watches a daemon process from outside while the world is hostile: GET /healthz every 200 ms (the next probe
// leaves once the previous one answered or gave up) recording the slowest answer, and the process's RSS (from
// /proc) and V8 heap (from /metrics, when process metrics are on) about once a second.
import { readFileSync } from 'node:fs';
import { metricSum } from '../../../bench/lib/daemon-process.js';

const PROBE_EVERY_MS = 200;
/** A probe that waits longer than this counts as this long (and as failed). */
const PROBE_GIVE_UP_MS = 5_000;
const MEMORY_EVERY_PROBES = 5;

export interface LivenessReport {
  readonly probes: number;
  /** Probes that failed or gave up. */
  readonly failures: number;
  /** Slowest /healthz answer, ms. */
  readonly maxHealthzMs: number;
  readonly maxRssMiB: number;
  /** Largest V8 heap in use, MiB (0 when the daemon exports no process metrics). */
  readonly maxHeapMiB: number;
}

export interface LivenessProbe {
  /** The daemon is paused on purpose until `untilMs` (performance.now()): probes before then do not count. */
  holdUntil(untilMs: number): void;
  stop(): Promise<LivenessReport>;
}

/** After a pause the process needs a moment to run what piled up; probes in it do not count either. */
const RESUME_GRACE_MS = 1_000;

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function heapMiB(url: string, signal: AbortSignal): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { signal })).text();
  return metricSum(text, 'ledger_sentinel_nodejs_heap_size_used_bytes') / 1024 / 1024;
}

export function startLivenessProbe(url: string, pid: number): LivenessProbe {
  const report = { probes: 0, failures: 0, maxHealthzMs: 0, maxRssMiB: 0, maxHeapMiB: 0 };
  let stopped = false;
  const holds: { from: number; until: number }[] = [];
  /** A probe whose time overlaps a pause (or the grace after it) measures the pause, not the daemon. */
  const held = (from: number, to: number) =>
    holds.some((h) => from <= h.until + RESUME_GRACE_MS && to >= h.from);
  async function probe(): Promise<void> {
    const started = performance.now();
    if (held(started, started)) return;
    const signal = AbortSignal.timeout(PROBE_GIVE_UP_MS);
    let failed = false;
    try {
      const res = await fetch(`${url}/healthz`, { signal });
      await res.text();
      failed = res.status !== 200;
    } catch {
      failed = true;
    }
    if (held(started, performance.now())) return;
    if (failed) report.failures += 1;
    report.probes += 1;
    report.maxHealthzMs = Math.max(report.maxHealthzMs, performance.now() - started);
    if (report.probes % MEMORY_EVERY_PROBES === 0) {
      report.maxRssMiB = Math.max(report.maxRssMiB, rssMiB(pid));
      report.maxHeapMiB = Math.max(report.maxHeapMiB, await heapMiB(url, signal).catch(() => 0));
    }
  }
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      await probe();
      await new Promise((r) => setTimeout(r, Math.max(0, PROBE_EVERY_MS - (performance.now() - started))));
    }
  })();
  return {
    holdUntil(untilMs) {
      holds.push({ from: performance.now(), until: untilMs });
    },
    async stop() {
      stopped = true;
      await loop;
      return { ...report };
    },
  };
}
