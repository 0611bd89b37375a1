import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli.js';

function capture(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ctx = { argv, env: {}, stdout, stderr, cwd: process.cwd(), signal: new AbortController().signal };
  return { ctx, out: () => out, err: () => err };
}

describe('cli', () => {
  it('prints usage for --help and exits 0', async () => {
    const c = capture(['--help']);

    const code = await runCli(c.ctx);

    expect(code).toBe(0);
    expect(c.out()).toContain('Usage: ledger-sentinel <command>');
  });

  it('rejects an unknown command with exit 2 and a pointer to --help', async () => {
    const c = capture(['frobnicate']);

    const code = await runCli(c.ctx);

    expect(code).toBe(2);
    expect(c.err()).toContain('unknown command "frobnicate"');
  });
});
