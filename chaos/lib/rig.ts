// One chaos run: the living ledger on 127.0.0.1 (in this process: its ground truth is the referee), a Slack-like
// sink, a temporary config with the marker rule, and `ledger-sentinel run` as a child process that can be
// killed and restarted on the same state directory.
import { appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  startLivingLedger,
  type RunningLivingLedger,
  type LivingLedgerServerOptions,
} from '@ledger-sentinel/simulator/living-ledger-server';
import { spawnSentinel, until, metricsText, type SentinelProcess } from '../../bench/lib/daemon-process.js';
import {
  sentinelDir,
  type SentinelConfigOptions,
  type SentinelDir,
} from '../../bench/lib/sentinel-config.js';
import { startChaosSlack, type ChaosSlack, type SlackDownMode } from './slack.js';
import { expectedMarkers, injectMarker, markerRules, receivedMarkers, tally, type Tally } from './markers.js';
import type { ChaosContext } from './scenario.js';

const SLACK_KEYS = 'group_wait: 0s, group_max_listed: 40, min_interval: 10ms';

export interface RigOptions {
  readonly ledger: LivingLedgerServerOptions;
  /** Markers 0 … markers-1 will be injected (one rule each). */
  readonly markers: number;
  /** Watched accounts 0.0.1001 … (markers are paid by these). */
  readonly watched: number;
  /** Config overrides; notifiers default to one Slack notifier `ops-slack`. */
  readonly config?: Partial<SentinelConfigOptions>;
  /** The keys of the `ops-slack` notifier besides kind and URL (default: group_wait 0s, 40 listed, 10ms apart). */
  readonly slackKeys?: string;
  /** What the Slack sink answers while down (default 'throttled': 503 and 429 with Retry-After). */
  readonly slackDown?: SlackDownMode;
  /** Notifier names for the marker rule (default ops-slack). */
  readonly ruleNotifiers?: readonly string[];
  readonly env?: Record<string, string>;
  /** Run the compiled daemon with the chart's NODE_OPTIONS, as deployed (daemon-process.ts). */
  readonly compiled?: boolean;
}

export interface Rig {
  readonly ledger: RunningLivingLedger;
  readonly slack: ChaosSlack;
  readonly dir: SentinelDir;
  readonly daemons: SentinelProcess[];
  /** Starts (or restarts) the daemon, with `env` added to the rig's; resolves once it logged `started`. */
  start(env?: Record<string, string>): Promise<SentinelProcess>;
  /** Injects marker n, paid by a watched account chosen by n. */
  mark(n: number): void;
  /** The markers injected so far (`chaos-<n>`). */
  readonly injected: ReadonlySet<string>;
  /** Waits until every expected marker arrived (or timeoutMs), then tallies. */
  settle(timeoutMs: number, bodies?: () => string[]): Promise<Tally>;
  close(): Promise<void>;
}

export async function startRig(ctx: ChaosContext, options: RigOptions): Promise<Rig> {
  const ledger = await startLivingLedger({ autoAdvanceMs: 200, ...options.ledger });
  const slack = await startChaosSlack({ down: options.slackDown ?? 'throttled' });
  ctx.session.secrets.set('slack webhook token', slack.token);
  const dir = sentinelDir();
  const accounts = Array.from({ length: options.watched }, (_, i) => `0.0.${1001 + i}`);
  const unwatched = `0.0.${1001 + options.watched}`;
  const injected = new Set<string>();
  dir.writeConfig({
    ledgerUrl: ledger.url,
    accounts,
    notifiers: `  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, ${options.slackKeys ?? SLACK_KEYS} }`,
    ...options.config,
  });
  dir.writeRule('marker.yaml', markerRules(options.markers, options.ruleNotifiers ?? ['ops-slack']));
  const daemons: SentinelProcess[] = [];
  const rig: Rig = {
    ledger,
    slack,
    dir,
    daemons,
    async start(env = {}) {
      const daemon = spawnSentinel(['run', '--config', dir.configPath], {
        env: { ...options.env, ...env },
        compiled: options.compiled,
      });
      daemons.push(daemon);
      await daemon.waitFor((out) => out.includes('"msg":"started"'), 60_000);
      return daemon;
    },
    injected,
    mark(n) {
      injectMarker(ledger.ledger, n, accounts[n % accounts.length] as string, unwatched);
      injected.add(`chaos-${n}`);
    },
    async settle(timeoutMs, bodies = () => slack.accepted()) {
      // Every marker injected is expected, whether or not the ledger has generated it yet: one the ground truth
      // never shows is lost too, so a scenario cannot pass by expecting less than it injected.
      const expected = new Set([...expectedMarkers(ledger.ledger), ...injected]);
      await until(() => tally(expected, receivedMarkers(bodies())).lost.length === 0, timeoutMs, 250);
      return tally(expected, receivedMarkers(bodies()));
    },
    async close() {
      const logFile = join(tmpdir(), `ledger-sentinel-chaos-${basename(dir.dir)}.log`);
      for (const d of daemons) {
        if (d.child.exitCode === null && d.child.signalCode === null) {
          const url = await d.httpUrl(1000).catch(() => undefined);
          if (url)
            ctx.session.outputs.push({ label: 'metrics', text: await metricsText(url).catch(() => '') });
          d.kill('SIGTERM');
          await d.exited;
        }
        appendFileSync(logFile, `--- daemon ${d.pid}\n${d.stdout()}${d.stderr()}`);
        ctx.session.outputs.push({ label: `daemon ${d.pid} stdout`, text: d.stdout() });
        ctx.session.outputs.push({ label: `daemon ${d.pid} stderr`, text: d.stderr() });
      }
      await slack.close();
      await ledger.close();
      dir.remove();
      ctx.log(`daemon logs: ${logFile}`);
    },
  };
  return rig;
}
