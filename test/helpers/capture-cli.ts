// A CLI context for tests whose stdout and stderr are collected as text.
import { PassThrough } from 'node:stream';
import type { CliContext } from '../../src/cli/command.js';

export interface CapturedCli {
  readonly ctx: CliContext;
  out(): string;
  err(): string;
}

export function captureCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  cwd = process.cwd(),
): CapturedCli {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ctx = { argv: [...argv], env, stdout, stderr, cwd, signal: new AbortController().signal };
  return { ctx, out: () => out, err: () => err };
}
