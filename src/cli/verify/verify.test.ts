import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLivingLedger, type RunningLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { VERIFY_FIXED_ADDRESSES } from '@ledger-sentinel/simulator/verify-answers';
import { startCli } from '../../../test/integration/cli-harness.js';

describe('verify', () => {
  let sim: RunningLivingLedger;
  let dir: string;
  beforeAll(async () => {
    sim = await startLivingLedger({ seed: 'verify', tps: 1 });
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-verify-'));
  });
  afterAll(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['perfect', VERIFY_FIXED_ADDRESSES.perfect, 0, ': perfect'],
    ['partial', VERIFY_FIXED_ADDRESSES.partial, 0, ': partial'],
    ['not verified', VERIFY_FIXED_ADDRESSES['not-verified'], 1, ': not verified'],
  ])('reports a %s contract', async (_label, address, exitCode, text) => {
    const run = startCli(['verify', '--address', address, '--chain-id', '295', '--verify-url', sim.url]);

    const code = await run.done;

    expect(code).toBe(exitCode);
    expect(run.stdout().startsWith(`${address} on chain 295${text}`)).toBe(true);
  });

  it('takes the API key from --api-key-file and never prints it', async () => {
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, 'invalid-secret-key-123\n');

    const run = startCli([
      'verify',
      '--address',
      VERIFY_FIXED_ADDRESSES.perfect,
      '--chain-id',
      '295',
      '--verify-url',
      sim.url,
      '--api-key-file',
      keyFile,
    ]);
    const code = await run.done;

    expect(code).toBe(1);
    expect(run.stderr()).toContain('Invalid API Key');
    expect(run.stdout() + run.stderr()).not.toContain('invalid-secret-key-123');
  });

  it('takes the service and chain id from the config', async () => {
    const config = join(dir, 'config.yaml');
    writeFileSync(
      config,
      `ledger: { base_url: ${sim.url} }\nverification: { base_url: ${sim.url}, chain_id: "295" }\n`,
    );

    const run = startCli(['verify', '--address', VERIFY_FIXED_ADDRESSES.perfect, '--config', config]);
    const code = await run.done;

    expect(code).toBe(0);
    expect(run.stdout()).toContain('on chain 295: perfect');
  });

  it.each([
    [['--chain-id', '295'], '--address is required'],
    [['--address', VERIFY_FIXED_ADDRESSES.perfect, '--chain-id', '295'], 'no verification service'],
    [
      ['--address', '0x12', '--chain-id', '295', '--verify-url', 'http://127.0.0.1:1'],
      'expected a 20-byte hex address',
    ],
  ])('exits 2 on bad usage: %j', async (argv, message) => {
    const run = startCli(['verify', ...argv]);

    const code = await run.done;

    expect(code).toBe(2);
    expect(run.stderr()).toContain(message);
  });
});
