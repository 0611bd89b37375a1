// Runs a subcommand in-process with captured output and an abortable signal: what main.ts does, minus process.
import { EventEmitter, once } from 'node:events';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/cli.js';

export interface CliRun {
  readonly done: Promise<number>;
  stdout(): string;
  stderr(): string;
  /** Resolves when stdout + stderr satisfy the predicate (checked on every write). */
  waitFor(predicate: (out: string, err: string) => boolean): Promise<void>;
  /** SIGTERM / Ctrl-C. */
  abort(): void;
  /** SIGHUP. */
  hangup(): void;
}

export function startCli(
  argv: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): CliRun {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const events = new EventEmitter();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => ((out += d.toString()), events.emit('write')));
  stderr.on('data', (d: Buffer) => ((err += d.toString()), events.emit('write')));
  const controller = new AbortController();
  const hangups = new EventTarget();
  const ctx = {
    argv,
    env: options.env ?? {},
    stdout,
    stderr,
    cwd: options.cwd ?? process.cwd(),
    signal: controller.signal,
    hangups,
    pid: process.pid,
  };
  let finished = false;
  const done = runCli(ctx).finally(() => (finished = true));
  return {
    done,
    stdout: () => out,
    stderr: () => err,
    async waitFor(predicate) {
      while (!predicate(out, err)) {
        if (finished) throw new Error(`the command ended first.\nstdout:\n${out}\nstderr:\n${err}`);
        await Promise.race([once(events, 'write'), done]);
      }
    },
    abort: () => controller.abort(new Error('test stop')),
    hangup: () => hangups.dispatchEvent(new Event('SIGHUP')),
  };
}
