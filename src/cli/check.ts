// `ledger-sentinel check --config <file>`: validates the config and every rule file it names, and prints every
// problem as file:line:col; exit 1 on any.
import { PassThrough } from 'node:stream';
import { loadAll } from '../app/load-all.js';
import type { Config } from '../config/schema.js';
import { createChannels } from '../notifiers/channels.js';
import { createLogger } from '../observability/logger.js';
import { printIssues } from '../app/cli/print-issues.js';
import type { Command } from './command.js';
import { DEFAULT_CONFIG, parseConfigArg } from './run.js';
import { resolutionPlan } from './resolution-plan.js';

const USAGE = `Usage: ledger-sentinel check [--config <file>]

Validates the config file and all rule files it names, without starting anything (no request is sent). Prints
every error as file:line:col path: message and exits 1 when there is any, 0 when all is valid. For each account
named by EVM address or alias, prints how the daemon will find its id.

Options:
  --config <file>   the config file (default ${DEFAULT_CONFIG})
`;

export const check: Command = {
  name: 'check',
  summary: 'validate a config file and its rules',
  usage: USAGE,
  async run(ctx) {
    const configPath = parseConfigArg(ctx.argv, ctx.cwd);
    if (configPath instanceof Error) {
      ctx.stderr.write(`ledger-sentinel check: ${configPath.message}. Run ledger-sentinel check --help.\n`);
      return 2;
    }
    const result = loadAll(configPath, { env: ctx.env });
    if (!result.ok) {
      printIssues(ctx.stderr, result.issues);
      return 1;
    }
    const { accounts, ruleSet, rulePaths, config } = result.loaded;
    const refused = notifierProblem(configPath, result.loaded.config);
    if (refused) {
      ctx.stderr.write(`${refused}\n1 error\n`);
      return 1;
    }
    const notifiers = Object.keys(config.notifiers).length;
    ctx.stdout.write(
      `${configPath}: valid: ${accounts.length} accounts, ${ruleSet.rules.length} rules from ${rulePaths.length} path(s), ${notifiers} notifiers\n`,
    );
    ctx.stdout.write(resolutionPlan(accounts, config.ledger.base_url));
    return 0;
  },
};

/** Builds the notifiers as `run` would (nothing is sent): a notifier `run` would refuse is an error here too. */
function notifierProblem(configPath: string, config: Config): string | undefined {
  const logger = createLogger({ level: 'silent', secrets: ['\u0000never'] });
  const deps = { now: Date.now, sleep: async () => undefined, logger, stdout: new PassThrough() };
  try {
    createChannels(config.notifiers, deps);
    return undefined;
  } catch (err) {
    return `${configPath}: notifiers: ${(err as Error).message}`;
  }
}
