// `ledger-sentinel backtest --config <file> --from <ts> --to <ts>`: replays the rules over history without
// sending anything (through the daemon's pipeline, pipeline/offline/), and shows what would have fired.
import { parseArgs } from 'node:util';
import { parseTimeArg } from './parse-time.js';
import { replay } from './replay.js';
import { resolveForReplay } from './resolve-accounts.js';
import { alertLine, progressBar, summarize, summaryTable } from './report.js';
import { printIssues } from '../common/print-issues.js';
import { ledgerClientFor, verifyClientFor } from '../../app/clients.js';
import { loadAll } from '../../app/load-all.js';
import { verifyFor } from '../../enrich/verify-adapter.js';
import { createContractVerification } from '../../enrich/verification.js';
import { createLogger } from '../../observability/logger.js';
import type { CliContext, Command } from '../command.js';
import { DEFAULT_CONFIG, parseConfigArg } from '../run/run.js';

const USAGE = `Usage: ledger-sentinel backtest --from <time> --to <time> [--config <file>] [--json]

Replays the rules of the config over a past range of the query service (every transaction from..to, oldest
first) and prints each alert that would have fired, then a table per rule. Sends nothing, stores nothing.

Options:
  --config <file>   the config file (default ${DEFAULT_CONFIG})
  --from <time>     start, inclusive: a consensus timestamp (1700000000.000000000) or ISO date-time
  --to <time>       end, inclusive, same forms
  --json            one JSON document on stdout instead of text (no progress bar)
`;

interface Args {
  readonly configPath: string;
  readonly from: bigint;
  readonly to: bigint;
  readonly json: boolean;
}

function parseBacktestArgs(ctx: CliContext): Args | string {
  let values;
  try {
    values = parseArgs({
      args: [...ctx.argv],
      options: {
        config: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    return `${(err as Error).message}. Run ledger-sentinel backtest --help.`;
  }
  const configPath = parseConfigArg(
    values.config === undefined ? [] : ['--config', values.config],
    ctx.cwd,
  ) as string;
  const from = values.from === undefined ? undefined : parseTimeArg(values.from);
  const to = values.to === undefined ? undefined : parseTimeArg(values.to);
  if (from === undefined)
    return `--from: expected a timestamp like 1700000000.000000000 or 2024-05-01T00:00:00Z, got ${JSON.stringify(values.from ?? '')}`;
  if (to === undefined)
    return `--to: expected a timestamp like 1700000000.000000000 or 2024-05-01T00:00:00Z, got ${JSON.stringify(values.to ?? '')}`;
  if (to < from) return '--to is before --from; swap them';
  return { configPath, from, to, json: values.json };
}

export const backtest: Command = {
  name: 'backtest',
  summary: 'replay the rules over a past time range, sending nothing',
  usage: USAGE,
  async run(ctx) {
    const args = parseBacktestArgs(ctx);
    if (typeof args === 'string') {
      ctx.stderr.write(`ledger-sentinel backtest: ${args}\n`);
      return 2;
    }
    const result = loadAll(args.configPath, { env: ctx.env });
    if (!result.ok) {
      printIssues(ctx.stderr, result.issues);
      return 1;
    }
    const logger = createLogger({ level: 'error', destination: ctx.stderr, secrets: ['\u0000never'] });
    const { config, ruleSet, accounts } = await resolveForReplay(result.loaded, logger, ctx.stderr);
    const client = ledgerClientFor(config, logger);
    const verifyClient = verifyClientFor(config, logger);
    const tty = (ctx.stderr as { isTTY?: boolean }).isTTY === true && !args.json;
    const span = Number(args.to - args.from) || 1;
    try {
      const outcome = await replay({
        client,
        ruleSet,
        accounts,
        routes: config.routes,
        verification: createContractVerification({ verify: verifyFor(verifyClient, config) }),
        from: args.from,
        to: args.to,
        signal: ctx.signal,
        onProgress: (at, txs, alerts) => {
          if (tty) ctx.stderr.write(`\r${progressBar(Number(at - args.from) / span, txs, alerts)}`);
        },
      });
      if (tty) ctx.stderr.write('\n');
      const summary = summarize(
        outcome.alerts,
        ruleSet.rules.map((r) => r.id),
      );
      if (args.json) {
        ctx.stdout.write(
          `${JSON.stringify({ transactions: outcome.transactions, records: outcome.records, alerts: outcome.alerts, summary }, null, 2)}\n`,
        );
      } else {
        for (const alert of outcome.alerts) ctx.stdout.write(`${alertLine(alert)}\n`);
        ctx.stdout.write(
          `\n${outcome.transactions} transactions read, ${outcome.records} records for watched accounts, ${outcome.alerts.length} alerts\n\n`,
        );
        ctx.stdout.write(`${summaryTable(summary)}\n`);
      }
      return 0;
    } catch (err) {
      if (tty) ctx.stderr.write('\n');
      ctx.stderr.write(`ledger-sentinel backtest: ${(err as Error).message}\n`);
      return 1;
    } finally {
      await client.close();
      await verifyClient?.close();
    }
  },
};
