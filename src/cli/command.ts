import type { Writable } from 'node:stream';

/** What a subcommand gets from the process: everything else it builds itself (docs/architecture.md). */
export interface CliContext {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly cwd: string;
  /** Aborted on SIGINT/SIGTERM; long-running commands stop cleanly when it fires. */
  readonly signal: AbortSignal;
  /** SIGHUP as events (the daemon reloads on them); absent where the caller has no such signal. */
  readonly hangups?: EventTarget;
  /** This process's id, recorded as the owner of the state dir (absent: "unknown" in the holder message). */
  readonly pid?: number;
  /**
   * The command decided to end the process (a signal, a lost lease, a lost state store) and will stop within
   * graceMs: the process entry then bounds the exit (src/main.ts, docs/operations.md "Exit bound"). Called at
   * most once counts; absent where the caller does not bound it (tests running a command in-process).
   */
  readonly exiting?: (decision: ExitDecision) => void;
}

/** Why the process is about to end, and how long its graceful stop may take. */
export interface ExitDecision {
  readonly reason: string;
  readonly graceMs: number;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Resolves to the process exit code. */
  run(ctx: CliContext): Promise<number>;
}
