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
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** Resolves to the process exit code. */
  run(ctx: CliContext): Promise<number>;
}
