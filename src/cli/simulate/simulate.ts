// `ledger-sentinel simulate`: serves the living ledger (or one spec fixture) on HTTP until ctx.signal fires.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { CliContext, Command } from '../command.js';
import { parseDuration } from '../../config/duration.js';
import { waitForAbort } from '../../ledger/wait-for-abort.js';
import type { FaultProfile } from '@ledger-sentinel/simulator/faults';
import type { ServiceVersion } from '@ledger-sentinel/simulator/service-version';
import { loadSimulator, type Simulator } from '../common/load-simulator.js';

const USAGE = `Usage: ledger-sentinel simulate [options]

Serves a simulated ledger query service (and verification service) until stopped.

Options:
  --port <n>               port on 127.0.0.1 (default 5551; 0 = any free port)
  --host <addr>            listen address (default 127.0.0.1)
  --seed <n>               seed of the living ledger and of the faults (default 1)
  --tps <n>                transactions per second (default 20)
  --lag <duration>         ingestion lag after each 2 s record file (default 2s)
  --faults <profile>       a preset (none, flaky, chaos, late; docs/simulator.md "Fault profiles") or
                           <file.json|file.yaml> (default none)
  --fixture <file>         serve one spec-test setup instead of the living ledger
  --range-binding on|off   60-day binding of /transactions (default on; off with --fixture)
  --service-version <v>    response shapes: 0.129 (batch_key as 0x-hex) or current (batch_key as a key
                           object, high_volume, null node on batch inner transactions); default 0.129
`;

export interface SimulateArgs {
  readonly host: string;
  readonly port: number;
  readonly seed: string;
  readonly tps: number;
  readonly lagMs: number;
  readonly faults: string;
  readonly fixture: string | undefined;
  readonly rangeBinding: boolean | undefined;
  readonly serviceVersion: ServiceVersion;
}

/** Parses argv; returns an error message (what, where, how to fix) instead of throwing. */
export function parseSimulateArgs(argv: readonly string[], sim: Simulator): SimulateArgs | string {
  const { MAX_TPS, SERVICE_VERSIONS, isServiceVersion } = sim;
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string', default: '5551' },
        host: { type: 'string', default: '127.0.0.1' },
        seed: { type: 'string', default: '1' },
        tps: { type: 'string', default: '20' },
        lag: { type: 'string', default: '2s' },
        faults: { type: 'string', default: 'none' },
        fixture: { type: 'string' },
        'range-binding': { type: 'string' },
        'service-version': { type: 'string', default: '0.129' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    return `${(err as Error).message}. Run ledger-sentinel simulate --help for the options.`;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return `--port: expected 0-65535, got "${values.port}"`;
  const tps = Number(values.tps);
  if (!(tps > 0 && tps <= MAX_TPS)) return `--tps: expected a number in (0, ${MAX_TPS}], got "${values.tps}"`;
  const lagMs = parseDuration(values.lag);
  if (lagMs === undefined) return `--lag: expected a duration like "2s" or "500ms", got "${values.lag}"`;
  const binding = values['range-binding'];
  if (binding !== undefined && binding !== 'on' && binding !== 'off') {
    return `--range-binding: expected on or off, got "${binding}"`;
  }
  const serviceVersion = values['service-version'];
  if (!isServiceVersion(serviceVersion))
    return `--service-version: expected ${SERVICE_VERSIONS.join(' or ')}, got "${serviceVersion}"`;
  return {
    host: values.host,
    port,
    seed: values.seed,
    tps,
    lagMs,
    faults: values.faults,
    fixture: values.fixture,
    rangeBinding: binding === undefined ? undefined : binding === 'on',
    serviceVersion,
  };
}

async function loadFaults(name: string, cwd: string, sim: Simulator): Promise<FaultProfile> {
  const { FAULT_PRESETS, resolveFaultProfile } = sim;
  if (Object.hasOwn(FAULT_PRESETS, name)) return resolveFaultProfile(name);
  if (!/\.(json|ya?ml)$/i.test(name)) return resolveFaultProfile(name);
  const text = await readFile(resolve(cwd, name), 'utf8');
  return resolveFaultProfile(/\.json$/i.test(name) ? JSON.parse(text) : parseYaml(text));
}

async function serveFixture(
  args: SimulateArgs,
  ctx: CliContext,
  sim: Simulator,
): Promise<() => Promise<void>> {
  const { loadFixture, parseSpecJson, startSimulator } = sim;
  const file = resolve(ctx.cwd, args.fixture as string);
  const spec = parseSpecJson(await readFile(file, 'utf8')) as { setup?: Record<string, unknown> };
  if (!spec.setup)
    throw new Error(`${file}: no "setup" object; pass a spec-test file such as transactions/limit.json`);
  const loaded = loadFixture(spec.setup, { bindTimestampRange: args.rangeBinding ?? false });
  const server = await startSimulator({
    store: loaded.store,
    config: { ...loaded.config, serviceVersion: args.serviceVersion },
    host: args.host,
    port: args.port,
  });
  ctx.stdout.write(`${server.url}\n`);
  ctx.stdout.write(`fixture ${file}, range binding ${args.rangeBinding ? 'on' : 'off'}\n`);
  return () => server.close();
}

async function serveLiving(
  args: SimulateArgs,
  ctx: CliContext,
  sim: Simulator,
): Promise<() => Promise<void>> {
  const faults = await loadFaults(args.faults, ctx.cwd, sim);
  const running = await sim.startLivingLedger({
    host: args.host,
    port: args.port,
    seed: args.seed,
    tps: args.tps,
    lagMs: args.lagMs,
    faults,
    bindTimestampRange: args.rangeBinding ?? true,
    autoAdvanceMs: 500,
    serviceVersion: args.serviceVersion,
  });
  ctx.stdout.write(`${running.url}\n`);
  ctx.stdout.write(
    `living ledger: seed ${args.seed}, ${args.tps} tps, lag ${args.lagMs} ms, faults ${faults.name ?? args.faults}, ` +
      `range binding ${args.rangeBinding === false ? 'off' : 'on'}, service version ${args.serviceVersion}; ground truth at ${running.url}/_sim/stats\n`,
  );
  return () => running.close();
}

export const simulate: Command = {
  name: 'simulate',
  summary: 'serve a simulated ledger query service (living ledger or a spec fixture)',
  usage: USAGE,
  async run(ctx) {
    const sim = await loadSimulator();
    if (typeof sim === 'string') {
      ctx.stderr.write(`ledger-sentinel simulate: ${sim}\n`);
      return 1;
    }
    const args = parseSimulateArgs(ctx.argv, sim);
    if (typeof args === 'string') {
      ctx.stderr.write(`ledger-sentinel simulate: ${args}\n`);
      return 2;
    }
    let close: () => Promise<void>;
    try {
      close =
        args.fixture === undefined ? await serveLiving(args, ctx, sim) : await serveFixture(args, ctx, sim);
    } catch (err) {
      ctx.stderr.write(`ledger-sentinel simulate: ${(err as Error).message}\n`);
      return 1;
    }
    await waitForAbort(ctx.signal);
    await close();
    return 0;
  },
};
