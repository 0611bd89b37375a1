// `ledger-sentinel demo`: everything on one machine. The embedded simulator serves a living ledger (live
// traffic, a mild fault profile, a verification service), a local Slack-like sink receives webhooks, and the
// daemon runs with the demo config and the example rules, printing alerts to the console as they fire.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../../app/create-app.js';
import { printIssues } from '../common/print-issues.js';
import { waitForAbort } from '../../ledger/wait-for-abort.js';
import { DEMO_CONFIG, DEMO_CONFIG_FILE, EXAMPLE_RULES_DIR } from './demo-config.js';
import { playScenario } from './scenario.js';
import { startDemoSlackSink } from './slack-sink.js';
import { loadAll } from '../../app/load-all.js';
import { parseDuration } from '../../config/duration.js';
import type { ServiceVersion } from '@ledger-sentinel/simulator/service-version';
import { loadSimulator, type Simulator } from '../common/load-simulator.js';
import type { CliContext, Command } from '../command.js';

const USAGE = `Usage: ledger-sentinel demo [options]

Starts a simulated ledger with live traffic and a mild fault profile, a local Slack-like receiver, and the
daemon with the example rules; alerts are printed here as they fire. Stops on Ctrl-C.

Options:
  --duration <d>     stop by itself after this long, e.g. 30s (default: run until Ctrl-C)
  --seed <n>         seed of the simulated ledger (default 1)
  --tps <n>          simulated transactions per second (default 20)
  --log-level <l>    daemon log level on stderr (default warn)
  --service-version <v>  simulated response shapes: 0.129 or current (default current)
`;

/** Light faults: the daemon's retries are visible in the metrics, the alerts still arrive in seconds. */
const MILD_FAULTS = {
  name: 'mild',
  routes: { '*': { rate_limit: 0.02, retry_after_seconds: 1, unavailable: 0.01, slow: 0.02, slow_ms: 300 } },
  late_visibility: { fraction: 0.02, delay_ms: 3000 },
};

interface DemoArgs {
  readonly durationMs: number | undefined;
  readonly seed: string;
  readonly tps: number;
  readonly logLevel: string;
  readonly serviceVersion: ServiceVersion;
}

function parseDemoArgs(argv: readonly string[], sim: Simulator): DemoArgs | string {
  const { SERVICE_VERSIONS, isServiceVersion } = sim;
  let values;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        duration: { type: 'string' },
        seed: { type: 'string', default: '1' },
        tps: { type: 'string', default: '20' },
        'log-level': { type: 'string', default: 'warn' },
        'service-version': { type: 'string', default: 'current' },
      },
      strict: true,
    }).values;
  } catch (err) {
    return `${(err as Error).message}. Run ledger-sentinel demo --help for the options.`;
  }
  const durationMs = values.duration === undefined ? undefined : parseDuration(values.duration);
  if (values.duration !== undefined && !durationMs)
    return `--duration: expected a duration like "30s", got "${values.duration}"`;
  const tps = Number(values.tps);
  if (!(tps > 0 && tps <= 1000)) return `--tps: expected a number in (0, 1000], got "${values.tps}"`;
  const serviceVersion = values['service-version'];
  if (!isServiceVersion(serviceVersion))
    return `--service-version: expected ${SERVICE_VERSIONS.join(' or ')}, got "${serviceVersion}"`;
  return { durationMs, seed: values.seed, tps, logLevel: values['log-level'], serviceVersion };
}

export const demo: Command = {
  name: 'demo',
  summary: 'run the daemon against a simulated ledger, printing alerts',
  usage: USAGE,
  async run(ctx) {
    const sim = await loadSimulator();
    if (typeof sim === 'string') {
      ctx.stderr.write(`ledger-sentinel demo: ${sim}\n`);
      return 1;
    }
    const args = parseDemoArgs(ctx.argv, sim);
    if (typeof args === 'string') {
      ctx.stderr.write(`ledger-sentinel demo: ${args}\n`);
      return 2;
    }
    const { signal, clear } = stopAfter(ctx.signal, args.durationMs);
    const ledger = await sim.startLivingLedger({
      seed: args.seed,
      tps: args.tps,
      lagMs: 1000,
      faults: sim.resolveFaultProfile(MILD_FAULTS),
      autoAdvanceMs: 250,
      serviceVersion: args.serviceVersion,
    });
    const sink = await startDemoSlackSink();
    const stateDir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-demo-'));
    try {
      return await runDaemon(
        ctx,
        signal,
        { ledgerUrl: ledger.url, slackUrl: sink.url, stateDir, logLevel: args.logLevel },
        ledger.ledger,
        () => sink.received(),
      );
    } finally {
      clear();
      await sink.close();
      await ledger.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  },
};

/** ctx.signal, or whichever comes first of it and the duration (a plain timer: it must keep the process alive). */
function stopAfter(
  outer: AbortSignal,
  durationMs: number | undefined,
): { signal: AbortSignal; clear: () => void } {
  if (durationMs === undefined) return { signal: outer, clear: () => undefined };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('demo duration reached')), durationMs);
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      outer.removeEventListener('abort', onAbort);
    },
  };
}

interface DemoPlaces {
  readonly ledgerUrl: string;
  readonly slackUrl: string;
  readonly stateDir: string;
  readonly logLevel: string;
}

async function runDaemon(
  ctx: CliContext,
  signal: AbortSignal,
  places: DemoPlaces,
  ledger: Parameters<typeof playScenario>[0],
  slackMessages: () => number,
): Promise<number> {
  const env = {
    DEMO_LEDGER_URL: places.ledgerUrl,
    DEMO_SLACK_URL: places.slackUrl,
    DEMO_STATE_DIR: places.stateDir,
    DEMO_RULES_DIR: EXAMPLE_RULES_DIR,
  };
  const readFile = (path: string) => (path === DEMO_CONFIG_FILE ? DEMO_CONFIG : readFileSync(path, 'utf8'));
  const result = loadAll(DEMO_CONFIG_FILE, { env, readFile });
  if (!result.ok) {
    printIssues(ctx.stderr, result.issues);
    return 1;
  }
  const app = createApp({
    loaded: result.loaded,
    logDestination: ctx.stderr,
    stdout: ctx.stdout,
    logLevel: places.logLevel,
  });
  await app.start();
  ctx.stdout.write(
    [
      `ledger-sentinel demo: simulated ledger at ${places.ledgerUrl}, Slack-like sink at ${places.slackUrl}`,
      `status page at ${app.httpUrl() ?? '?'}/, metrics and readiness at /metrics and /readyz; ${result.loaded.ruleSet.rules.length} example rules, ${result.loaded.accounts.length} accounts`,
      'alerts appear below within seconds; Ctrl-C stops',
      '',
    ].join('\n'),
  );
  let stopScenario = () => undefined as void;
  try {
    await Promise.race([app.firstPoll(), waitForAbort(signal)]);
    if (!signal.aborted) stopScenario = playScenario(ledger, 2500);
    await waitForAbort(signal);
  } finally {
    stopScenario();
    await app.stop({ graceMs: 5000 });
  }
  ctx.stdout.write(
    `\nledger-sentinel demo: stopped; ${slackMessages()} messages were posted to the Slack-like sink\n`,
  );
  return 0;
}
