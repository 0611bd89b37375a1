// `ledger-sentinel run` (or any subcommand) as a child process, from the sources through tsx or (compiled) as the
// image runs it, so it can be killed with SIGKILL and its RSS sampled on its own. Output is kept in memory for the
// secret scan and waited on by content.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface SentinelProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly startedAt: number;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
  /** Resolves when the output satisfies the predicate; rejects when the process ends first or after timeoutMs. */
  waitFor(predicate: (stdout: string, stderr: string) => boolean, timeoutMs?: number): Promise<void>;
  /** The HTTP server's URL from the `started` log line. */
  httpUrl(timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): void;
}

export interface SpawnOptions {
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  /**
   * Run what the image runs: `bin/ledger-sentinel.js` on the compiled dist/ (build it first: `npm run build`),
   * with the chart's NODE_OPTIONS unless env sets its own. Default: the sources through tsx.
   */
  readonly compiled?: boolean;
  /** Node flags before the entry point, for those NODE_OPTIONS refuses (e.g. `--cpu-prof`). */
  readonly nodeArgs?: readonly string[];
}

export function spawnSentinel(argv: readonly string[], options: SpawnOptions = {}): SentinelProcess {
  const entry = options.compiled
    ? ['bin/ledger-sentinel.js']
    : ['--conditions=source', '--import', 'tsx', 'src/main.ts'];
  const nodeOptions = options.compiled ? { NODE_OPTIONS: chartNodeOptions(), ...imageMallocEnv() } : {};
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...entry, ...argv], {
    cwd: options.cwd ?? REPO,
    env: { PATH: process.env.PATH ?? '', ...nodeOptions, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  child.stdout?.on('data', (d: Buffer) => ((out += d.toString()), notify()));
  child.stderr?.on('data', (d: Buffer) => ((err += d.toString()), notify()));
  let done = false;
  // `done` before the notification, or a waiter checking on it would miss that the process ended.
  const exited = once(child, 'exit').then(([code, signal]) => {
    done = true;
    notify();
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  const proc: SentinelProcess = {
    child,
    pid: child.pid ?? -1,
    startedAt: Date.now(),
    exited,
    stdout: () => out,
    stderr: () => err,
    waitFor(predicate, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (predicate(out, err)) finish();
          else if (done)
            finish(
              new Error(
                `the process ended first\nstdout:\n${out.slice(-2000)}\nstderr:\n${err.slice(-2000)}`,
              ),
            );
        };
        function finish(error?: Error) {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        }
        listeners.add(check);
        check();
      });
    },
    async httpUrl(timeoutMs) {
      await proc.waitFor((o) => o.includes('"msg":"started"'), timeoutMs);
      const line = out.split('\n').find((l) => l.includes('"msg":"started"')) ?? '{}';
      return (JSON.parse(line) as { http: string }).http;
    },
    kill: (signal = 'SIGTERM') => void child.kill(signal),
  };
  return proc;
}

/** `nodeOptions` of the Helm chart's values.yaml: the V8 flags the daemon runs with in Kubernetes. */
export function chartNodeOptions(): string {
  const values = parse(readFileSync(join(REPO, 'helm/ledger-sentinel/values.yaml'), 'utf8')) as {
    nodeOptions?: unknown;
  };
  if (typeof values.nodeOptions !== 'string') throw new Error('helm values.yaml has no nodeOptions string');
  return values.nodeOptions;
}

/**
 * The glibc allocator settings (`MALLOC_*`) the image's runtime stage sets in the Dockerfile: they change the
 * daemon's RSS, so a bench of the daemon as deployed runs with them.
 */
export function imageMallocEnv(): Record<string, string> {
  const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.search(/^FROM .* AS runtime$/m));
  return Object.fromEntries([...runtime.matchAll(/\b(MALLOC_[A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]));
}

/** The image's `MALLOC_*` settings as `K=V` words, for a figure's note. */
export function imageEnvText(): string {
  return Object.entries(imageMallocEnv())
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

/** Resident set size of a process in MiB, from /proc (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

/** Polls a condition every `everyMs` until it holds or `timeoutMs` passes; returns whether it held. */
export async function until(
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function metricsText(httpUrl: string): Promise<string> {
  return (await fetch(`${httpUrl}/metrics`)).text();
}

/** Sum of every series of a metric in a Prometheus text exposition. */
export function metricSum(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}
