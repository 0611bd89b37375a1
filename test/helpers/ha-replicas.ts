// HA replicas (`ledger-sentinel run` with ha.enabled, from the sources) on one real PostgreSQL, under a supervisor
// that restarts any replica that exits, as Kubernetes would. Records, for every process, when it was told or
// decided to exit (a SIGTERM or SIGCONT sent to it, or its own `leadership lost` line) and when it was gone, so a
// test or a chaos scenario can hold each exit to the documented bound (docs/operations.md, "Exit bound").
import pg from 'pg';
import { spawnSentinel, type SentinelProcess } from '../../bench/lib/daemon-process.js';

export interface ReplicaProcess {
  readonly holder: string;
  readonly proc: SentinelProcess;
  /**
   * When the process was told to exit (SIGTERM, SIGKILL) or decided by itself (`leadership lost`), whichever
   * came first; the last wake from a pause (SIGCONT) restarts the count (a paused process cannot exit), and a
   * woken process that went on running counts from the next SIGTERM or SIGKILL.
   */
  decidedAt: number | undefined;
  /** Why (the signal, or the line). */
  decision: string | undefined;
  exitedAt: number | undefined;
}

export interface Slot {
  readonly holder: string;
  current: ReplicaProcess;
  /** Every process this slot ran, restarts included. */
  readonly history: ReplicaProcess[];
  /** While set, the supervisor leaves an exited process alone. */
  held: boolean;
}

export interface ReplicaSet {
  readonly slots: readonly Slot[];
  /** Every process started so far. */
  all(): ReplicaProcess[];
  /** The slot whose live process leads now (said `leader elected` and not `leadership lost`). */
  leader(): Slot | undefined;
  /** Waits for a leader, at most timeoutMs. */
  waitForLeader(timeoutMs?: number): Promise<Slot>;
  /** Sends a signal and records the moment (see ReplicaProcess.decidedAt). */
  signal(slot: Slot, signal: NodeJS.Signals): void;
  /** Starts a replica for `holder` now (the supervisor does this by itself for exited ones). */
  restart(slot: Slot): void;
  /** How many times the supervisor restarted a replica. */
  restarts(): number;
  /** Stops supervising and kills every process (SIGCONT first, for a paused one). */
  close(): Promise<void>;
}

const exited = (p: SentinelProcess) => p.child.exitCode !== null || p.child.signalCode !== null;
const has = (p: ReplicaProcess, text: string) => p.proc.stdout().includes(text);

export interface ReplicaSetOptions {
  readonly configPath: string;
  readonly holders: readonly string[];
  /** Runs the compiled daemon (bench/lib/daemon-process.ts); default the sources through tsx. */
  readonly compiled?: boolean;
  /** Every process started (the chaos rig keeps them for its secret scan). */
  readonly onSpawn?: (proc: SentinelProcess) => void;
  /** More environment for every replica (e.g. a fake wall clock); HOLDER is set per replica. */
  readonly env?: Record<string, string>;
}

function spawnReplica(options: ReplicaSetOptions, holder: string): ReplicaProcess {
  const proc = spawnSentinel(['run', '--config', options.configPath], {
    env: { ...options.env, HOLDER: holder },
    compiled: options.compiled,
  });
  options.onSpawn?.(proc);
  const r: ReplicaProcess = { holder, proc, decidedAt: undefined, decision: undefined, exitedAt: undefined };
  proc.child.stdout?.on('data', () => {
    if ((r.decision === undefined || r.decision === 'SIGCONT') && has(r, '"msg":"leadership lost')) {
      r.decidedAt ??= Date.now(); // woken from a pause: counted from the wake
      r.decision = 'leadership lost';
    }
  });
  void proc.exited.then(() => (r.exitedAt = Date.now()));
  return r;
}

export function startReplicaSet(options: ReplicaSetOptions): ReplicaSet {
  const slots: Slot[] = options.holders.map((holder) => {
    const current = spawnReplica(options, holder);
    return { holder, current, history: [current], held: false };
  });
  let restarts = 0;
  let closed = false;
  const restart = (slot: Slot) => {
    slot.current = spawnReplica(options, slot.holder);
    slot.history.push(slot.current);
  };
  const supervisor = (async () => {
    while (!closed) {
      for (const slot of slots)
        if (!slot.held && exited(slot.current.proc)) {
          restarts += 1;
          restart(slot);
        }
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const leader = () =>
    slots.find(
      (s) =>
        !exited(s.current.proc) &&
        has(s.current, '"msg":"leader elected') &&
        !has(s.current, '"msg":"leadership lost'),
    );
  return {
    slots,
    all: () => slots.flatMap((s) => s.history),
    leader,
    async waitForLeader(timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = leader();
        if (found) return found;
        if (Date.now() > until) throw new Error(`no replica led within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    signal(slot, signal) {
      const r = slot.current;
      if (r.exitedAt === undefined && (signal === 'SIGTERM' || signal === 'SIGKILL')) {
        if (r.decision === undefined || r.decision === 'SIGCONT') {
          r.decision = signal;
          r.decidedAt = Date.now();
        }
      } else if (r.exitedAt === undefined && signal === 'SIGCONT') {
        r.decidedAt = Date.now(); // the time a process spent paused never counts
        r.decision ??= 'SIGCONT';
      }
      r.proc.kill(signal);
    },
    restart,
    restarts: () => restarts,
    async close() {
      closed = true;
      await supervisor;
      for (const r of slots.flatMap((s) => s.history)) {
        if (exited(r.proc)) continue;
        r.proc.kill('SIGCONT');
        r.proc.kill('SIGKILL');
        await r.proc.exited;
      }
    },
  };
}

/** Milliseconds from a process's exit decision to its exit; undefined while either has not happened. */
export function exitTook(r: ReplicaProcess): number | undefined {
  return r.decidedAt === undefined || r.exitedAt === undefined ? undefined : r.exitedAt - r.decidedAt;
}

/** The alert ids of every notification a daemon logged as sent. */
export function sentIds(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.includes('"notification sent"'))
    .flatMap((line) => (JSON.parse(line) as { alertIds?: string[] }).alertIds ?? []);
}

/** Lines of the output that contain `text`. */
export function linesWith(stdout: string, text: string): number {
  return stdout.split('\n').filter((l) => l.includes(text)).length;
}

/** Deliveries in the shared state, by status (after the replicas have replicated them). */
export async function deliveriesByStatus(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string; n: string }>(
      'SELECT status, count(*)::text AS n FROM outbox_delivery GROUP BY status',
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  } finally {
    await client.end();
  }
}

/**
 * Holds ACCESS EXCLUSIVE locks on the tables every replicated batch writes, from another connection, until
 * release(): the leader's writes (and the lease renewals queued behind its fenced transaction) block.
 */
export async function lockStateTables(url: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // a server stopped under it (a crash, the end of a run): nothing to hold
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE outbox_delivery, tail_cursor, sentinel_commits IN ACCESS EXCLUSIVE MODE');
  return {
    async release() {
      await client.query('COMMIT').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}
