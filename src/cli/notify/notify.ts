// `ledger-sentinel notify test <notifier> [--config <file>]`: one clearly marked test alert, and its resolve,
// through the named notifier exactly as the daemon sends (secrets from env and files, the same channel code), so
// the first real alert is not the first time the credentials are tried. Prints what the receiver answered.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfigFile } from '../../config-file/load.js';
import { Config } from '../../config-file/schema.js';
import { collectSecrets } from '../../config/secret.js';
import { createChannels } from '../../delivery/channels.js';
import { createLogger } from '../../observability/logger.js';
import { SEVERITIES, type Severity } from '../../rules/alert/alert.js';
import { printIssues } from '../common/print-issues.js';
import type { CliContext, Command } from '../command.js';
import { DEFAULT_CONFIG } from '../run/run.js';
import { sendTest } from './send-test.js';
import { resolvedTestAlert, testAlert } from './test-alert.js';

const USAGE = `Usage: ledger-sentinel notify test <notifier> [--config <file>] [--severity <s>] [--firing-only]

Sends a test alert, marked "TEST from ledger-sentinel … (not a real alert)" in its summary, description and
labels, through the named notifier as the daemon would (its secrets, keys and code), then its resolve, and prints
what the receiver answered (HTTP status and a short body; secrets are never shown). A paging receiver
(PagerDuty, Opsgenie) opens an incident for the test and closes it with the resolve. Exits 0 when the receiver
accepted both, 1 when it refused or could not be reached (with the reason and whether the daemon would retry),
2 on a usage error. Nothing is written to the state store.

Options:
  --config <file>    the config file (default ${DEFAULT_CONFIG})
  --severity <s>     info, warning or critical (default info; critical tests the paging path)
  --firing-only      send the test alert without its resolve
`;

interface NotifyArgs {
  readonly configPath: string;
  readonly notifier: string;
  readonly severity: Severity;
  readonly firingOnly: boolean;
}

export const notify: Command = {
  name: 'notify',
  summary: 'send a test notification through a configured notifier',
  usage: USAGE,
  async run(ctx) {
    const args = parseNotifyArgs(ctx.argv, ctx.cwd);
    if (args instanceof Error) {
      ctx.stderr.write(`ledger-sentinel notify: ${args.message}. Run ledger-sentinel notify --help.\n`);
      return 2;
    }
    const loaded = loadConfigFile(args.configPath, { env: ctx.env });
    if (!loaded.ok) {
      printIssues(ctx.stderr, loaded.issues);
      return 1;
    }
    const config = loaded.value;
    if (!(args.notifier in config.notifiers)) {
      const known = Object.keys(config.notifiers).sort().join(', ') || 'none configured';
      ctx.stderr.write(
        `ledger-sentinel notify: no notifier "${args.notifier}" in ${args.configPath}; configured: ${known}\n`,
      );
      return 2;
    }
    return (await sendTestAlerts(ctx, args, config)) ? 0 : 1;
  },
};

async function sendTestAlerts(ctx: CliContext, args: NotifyArgs, config: Config): Promise<boolean> {
  const secrets = collectSecrets(Config, config);
  const logger = createLogger({ level: 'warn', destination: ctx.stderr, secrets });
  const deps = { now: Date.now, sleep: sleepFor, logger, stdout: ctx.stdout };
  const only = { [args.notifier]: config.notifiers[args.notifier] } as Config['notifiers'];
  const channel = createChannels(only, deps).get(args.notifier);
  if (!channel) return false;
  const firing = testAlert(args.notifier, args.severity, Date.now());
  const alerts = args.firingOnly ? [firing] : [firing, resolvedTestAlert(firing, Date.now())];
  return sendTest({ name: args.notifier, channel, alerts, out: ctx.stdout, signal: ctx.signal });
}

function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
  });
}

function parseNotifyArgs(argv: readonly string[], cwd: string): NotifyArgs | Error {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string' },
        severity: { type: 'string', default: 'info' },
        'firing-only': { type: 'boolean', default: false },
      },
      allowPositionals: true,
      strict: true,
    });
    const [action, notifier, ...rest] = positionals;
    if (action !== 'test')
      return new Error(
        action
          ? `unknown action "${action}" (the action is: test)`
          : 'missing the action: notify test <notifier>',
      );
    if (!notifier || rest.length > 0) return new Error('name exactly one notifier: notify test <notifier>');
    if (!SEVERITIES.includes(values.severity as Severity))
      return new Error(`--severity must be one of ${SEVERITIES.join(', ')}, got "${values.severity}"`);
    return {
      configPath: resolve(cwd, values.config ?? DEFAULT_CONFIG),
      notifier,
      severity: values.severity as Severity,
      firingOnly: values['firing-only'],
    };
  } catch (err) {
    return err as Error;
  }
}
