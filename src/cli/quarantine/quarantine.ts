// `ledger-sentinel quarantine ls|rm`: the records the daemon could not read, kept in its state store
// (tail/quarantine/quarantine-store.ts). Works offline on the state directory; safe while the daemon runs (SQLite locking).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAll } from '../../app/load-all.js';
import { printIssues } from '../common/print-issues.js';
import { openStateStore } from '../../state/store.js';
import { createQuarantine, type QuarantinedRecord } from '../../tail/quarantine/quarantine-store.js';
import type { CliContext, Command } from '../command.js';
import { DEFAULT_CONFIG } from '../run/run.js';

const USAGE = `Usage: ledger-sentinel quarantine ls [options]
       ledger-sentinel quarantine rm [options] (<stream> <key> | --all)

The ledger records the daemon could not read (an essential field missing or malformed), kept with their raw
text, stream, page and reason. Each raises a self-monitoring alert until it is removed here.

  ls    one line per record, oldest first: key, transaction id, stream, field, reason
  rm    removes a record after review (its alert resolves at the next self-monitoring check)

Options:
  --config <file>      the config file whose state.dir to read (default ${DEFAULT_CONFIG})
  --state-dir <dir>    the state directory itself (instead of --config)
  --json               ls: one JSON object per line, with the raw record text
  --all                rm: every record
`;

interface Args {
  readonly action: 'ls' | 'rm';
  readonly stateDir?: string;
  readonly config: string;
  readonly json: boolean;
  readonly all: boolean;
  readonly target: readonly string[];
}

function parse(argv: readonly string[], cwd: string): Args | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string' },
        'state-dir': { type: 'string' },
        json: { type: 'boolean', default: false },
        all: { type: 'boolean', default: false },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (err) {
    return (err as Error).message;
  }
  const [action, ...target] = parsed.positionals;
  if (action !== 'ls' && action !== 'rm') return `expected "ls" or "rm", got ${JSON.stringify(action ?? '')}`;
  if (action === 'rm' && !parsed.values.all && target.length !== 2)
    return 'rm: expected <stream> <key> (as printed by quarantine ls) or --all';
  const stateDir = parsed.values['state-dir'];
  return {
    action,
    ...(stateDir === undefined ? {} : { stateDir: resolve(cwd, stateDir) }),
    config: resolve(cwd, parsed.values.config ?? DEFAULT_CONFIG),
    json: parsed.values.json,
    all: parsed.values.all,
    target,
  };
}

/** The state directory: --state-dir, or the config's state.dir (an error already printed when invalid). */
function stateDirOf(args: Args, ctx: CliContext): string | undefined {
  if (args.stateDir !== undefined) return args.stateDir;
  const result = loadAll(args.config, { env: ctx.env });
  if (!result.ok) {
    printIssues(ctx.stderr, result.issues);
    return undefined;
  }
  return resolve(ctx.cwd, result.loaded.config.state.dir);
}

export const quarantine: Command = {
  name: 'quarantine',
  summary: 'list or release the ledger records the daemon could not read',
  usage: USAGE,
  async run(ctx) {
    const args = parse(ctx.argv, ctx.cwd);
    if (typeof args === 'string') {
      ctx.stderr.write(`ledger-sentinel quarantine: ${args}. Run ledger-sentinel quarantine --help.\n`);
      return 2;
    }
    const dir = stateDirOf(args, ctx);
    if (dir === undefined) return 1;
    if (!existsSync(join(dir, 'state.db'))) {
      ctx.stderr.write(
        `ledger-sentinel quarantine: no state.db in ${dir}; pass the daemon's --config or --state-dir.\n`,
      );
      return 1;
    }
    const store = openStateStore({ dir });
    try {
      const q = createQuarantine(store);
      if (args.action === 'ls') {
        for (const r of q.list()) ctx.stdout.write(`${args.json ? jsonLine(r) : textLine(r)}\n`);
        return 0;
      }
      const doomed = args.all ? q.list() : [{ stream: args.target[0] ?? '', key: args.target[1] ?? '' }];
      const removed = doomed.filter((r) => q.remove(r.stream, r.key)).length;
      ctx.stdout.write(`${removed} record(s) removed from quarantine\n`);
      return removed > 0 || args.all ? 0 : 1;
    } finally {
      store.close();
    }
  },
};

function textLine(r: QuarantinedRecord): string {
  const at = new Date(r.quarantinedAt).toISOString();
  return [r.key, r.transactionId ?? '-', r.stream, r.field || '-', `${r.path}: ${r.reason}`, at]
    .map((v) => JSON.stringify(v).slice(1, -1))
    .join('\t');
}

function jsonLine(r: QuarantinedRecord): string {
  return JSON.stringify({ ...r, quarantinedAt: new Date(r.quarantinedAt).toISOString() });
}
