// `ledger-sentinel check --config <file>`: validates the config and every rule file it names, and prints every
// problem as file:line:col; exit 1 on any.
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { loadAll } from '../../app/load-all.js';
import type { Config } from '../../config-file/schema.js';
import { createChannels } from '../../delivery/channels.js';
import { createLogger } from '../../observability/logger.js';
import { formatIssue } from '../../config/config-error.js';
import { printIssues } from '../common/print-issues.js';
import type { Command } from '../command.js';
import { DEFAULT_CONFIG } from '../run/run.js';
import { resolutionPlan } from './resolution-plan.js';

const USAGE = `Usage: ledger-sentinel check [--config <file>] [--offline]

Validates the config file and all rule files it names, without starting anything. Prints every error as
file:line:col path: message and exits 1 when there is any, 0 when all is valid (warnings, such as a
transaction type this version does not know, are printed and do not fail the check). Nothing is sent and no
service is contacted. For each account named by EVM address or alias, prints how the daemon will find its id.

Options:
  --config <file>   the config file (default ${DEFAULT_CONFIG})
  --offline         do not read *_file secrets (CI, Helm pre-install): their keys must still name a file
`;

export const check: Command = {
  name: 'check',
  summary: 'validate a config file and its rules',
  usage: USAGE,
  async run(ctx) {
    const args = parseCheckArgs(ctx.argv, ctx.cwd);
    if (args instanceof Error) {
      ctx.stderr.write(`ledger-sentinel check: ${args.message}. Run ledger-sentinel check --help.\n`);
      return 2;
    }
    const { configPath, offline } = args;
    const result = loadAll(configPath, { env: ctx.env, offline });
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
    const warnings = result.loaded.warnings ?? [];
    for (const warning of warnings) ctx.stderr.write(`warning: ${formatIssue(warning)}\n`);
    const notifiers = Object.keys(config.notifiers).length;
    ctx.stdout.write(
      `${configPath}: valid: ${accounts.length} accounts, ${ruleSet.rules.length} rules from ${rulePaths.length} path(s), ${notifiers} notifiers${warningCount(warnings.length)}${offline ? ' (offline: secret files not read)' : ''}\n`,
    );
    ctx.stdout.write(resolutionPlan(accounts, config.ledger.base_url));
    return 0;
  },
};

function warningCount(n: number): string {
  return n === 0 ? '' : `, ${n} warning${n === 1 ? '' : 's'} (above)`;
}

function parseCheckArgs(
  argv: readonly string[],
  cwd: string,
): { configPath: string; offline: boolean } | Error {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: { config: { type: 'string' }, offline: { type: 'boolean', default: false } },
      strict: true,
    });
    return { configPath: resolve(cwd, values.config ?? DEFAULT_CONFIG), offline: values.offline };
  } catch (err) {
    return err as Error;
  }
}

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
