import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REPO_DIR } from '../../../test/helpers/shared.js';
import { join } from 'node:path';
import { loadSimulator, type Simulator } from '../common/load-simulator.js';
import { parseSimulateArgs as parseWith, simulate } from './simulate.js';

const sim = (await loadSimulator()) as Simulator;
const parseSimulateArgs = (argv: readonly string[]) => parseWith(argv, sim);

function start(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const controller = new AbortController();
  let out = '';
  let err = '';
  const firstLine = new Promise<string>((resolve) => {
    stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0] as string);
    });
  });
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ctx = { argv, env: {}, stdout, stderr, cwd: process.cwd(), signal: controller.signal };
  const exit = simulate.run(ctx);
  return { exit, firstLine, stop: () => controller.abort(), out: () => out, err: () => err };
}

describe('simulate arguments', () => {
  it('defaults to port 5551, seed 1, 20 tps, 2 s lag, no faults, binding decided by the mode', () => {
    expect(parseSimulateArgs([])).toEqual({
      host: '127.0.0.1',
      port: 5551,
      seed: '1',
      tps: 20,
      lagMs: 2000,
      faults: 'none',
      fixture: undefined,
      rangeBinding: undefined,
      serviceVersion: '0.129',
    });
  });

  it('names every fault preset of the simulator in its usage (the usage is shown without loading it)', () => {
    const presets = Object.keys(sim.FAULT_PRESETS);

    const missing = presets.filter(
      (name) => !simulate.usage.includes(`${name},`) && !simulate.usage.includes(`${name};`),
    );

    expect(presets.length).toBeGreaterThan(1);
    expect(missing).toEqual([]);
  });

  it('takes --service-version current', () => {
    expect(parseSimulateArgs(['--service-version', 'current'])).toMatchObject({ serviceVersion: 'current' });
  });

  it.each([
    [['--port', 'x'], '--port: expected 0-65535, got "x"'],
    [['--tps', '0'], '--tps: expected a number in (0, 1000000], got "0"'],
    [['--lag', '2 seconds'], '--lag: expected a duration like "2s" or "500ms", got "2 seconds"'],
    [['--range-binding', 'yes'], '--range-binding: expected on or off, got "yes"'],
    [['--service-version', '0.152'], '--service-version: expected 0.129 or current, got "0.152"'],
    [['--speed', '3'], "Unknown option '--speed'"],
  ])('rejects %j with a message that says how to fix it', (argv, message) => {
    expect(parseSimulateArgs(argv)).toContain(message);
  });
});

describe('simulate command', () => {
  it('prints its base URL, serves the living ledger until the signal fires, then exits 0', async () => {
    const run = start(['--port', '0', '--seed', '5', '--tps', '50', '--faults', 'none']);

    const url = await run.firstLine;
    const stats = (await (await fetch(`${url}/_sim/stats`)).json()) as { seed: string; tps: number };
    const page = await fetch(`${url}/api/v1/transactions?limit=1`);
    run.stop();

    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stats).toMatchObject({ seed: '5', tps: 50 });
    expect(page.status).toBe(200);
    expect(await run.exit).toBe(0);
  });

  it('serves a spec fixture exactly as its expected response', async () => {
    const file = join(REPO_DIR, 'test', 'fixtures', 'ledger', 'spec-limit.json');
    const spec = JSON.parse(readFileSync(file, 'utf8')) as {
      tests: { url: string; responseStatus: number; responseJson: unknown }[];
    };
    const [test] = spec.tests;
    const run = start(['--port', '0', '--fixture', file]);

    const url = await run.firstLine;
    const res = await fetch(`${url}${test?.url}`);
    const body: unknown = await res.json();
    run.stop();

    expect(res.status).toBe(test?.responseStatus);
    expect(body).toEqual(test?.responseJson);
    expect(await run.exit).toBe(0);
  });

  it('says which service version it imitates', async () => {
    const run = start(['--port', '0', '--service-version', 'current']);

    await run.firstLine;
    run.stop();
    const code = await run.exit;

    expect(run.out()).toContain('service version current');
    expect(code).toBe(0);
  });

  it('exits 1 with the reason when the fault profile file is invalid', async () => {
    const run = start(['--port', '0', '--faults', 'nope.json']);

    const code = await run.exit;

    expect(code).toBe(1);
    expect(run.err()).toContain('nope.json');
  });
});
