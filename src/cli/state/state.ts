// `ledger-sentinel state cursors` and `state reset-cursor`: the tailer's cursors in the state directory, shown
// and reset offline (docs/cli.md). For repairing by hand what a bad record or a bad clock left behind.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { printIssues } from '../common/print-issues.js';
import { cursorRows, formatCursorTable, parseResetTarget, resetCursors } from './state-cursors.js';
import { loadConfigFile } from '../../config-file/load.js';
import { timestampToIso } from '@ledger-sentinel/ledger-model/timestamp';
import { openStateStore } from '../../state/store.js';
import { CursorStore } from '../../tail/cursor/cursor-store.js';
import type { CliContext, Command } from '../command.js';
import type { StateConfig } from '../../config/sections/state.js';
import { migrateState } from './migrate.js';

const USAGE = `Usage: ledger-sentinel state cursors [options]
       ledger-sentinel state reset-cursor <stream|--all> [--to <timestamp|now>] [options]
       ledger-sentinel state migrate --to postgres --url-file <file> [--force] [options]

Shows or resets the tailer's cursors in the state directory. Stop the daemon first: these commands write the
state database directly and the daemon does not see the change while it runs.

  cursors        every stream's cursor (tx:<id>, rw:<id>, rwp:<alias>, global): safe and read as ISO times,
                 and how far read is from now; a cursor beyond now + max_clock_skew is flagged
  reset-cursor   sets one stream's cursor (or every one with --all) to --to; records after it are read again
                 (those already handed over are still dropped as seen)
  migrate        copies the whole SQLite state (cursors, seen window, rule state, pending outbox, silences, acks,
                 quarantine) into an empty PostgreSQL database in one transaction, and prints rows per table

Options:
  --config <file>           take the state directory (state.dir) and tail.max_clock_skew from this config
  --state-dir <dir>         the state directory (default /var/lib/ledger-sentinel)
  --to <timestamp|now>      reset-cursor: e.g. 1700000000.000000000; default now; never in the future
  --all                     reset-cursor: every stream
  --json                    cursors: print JSON
  --url-file <file>         migrate: a file holding postgres://user:password@host:5432/db (default: the config's
                            state.postgres.url)
  --force                   migrate: replace a state already in that database
`;

interface Options {
  readonly dir: string;
  readonly skewMs: number;
  readonly state?: StateConfig;
}

type Values = Record<string, string | boolean | undefined>;

function fail(ctx: CliContext, message: string, code = 2): number {
  ctx.stderr.write(`ledger-sentinel state: ${message}\n`);
  return code;
}

function options(ctx: CliContext, values: Values): Options | number {
  let dir = values['state-dir'] as string | undefined;
  let skewMs = 300_000;
  let state: StateConfig | undefined;
  if (values.config) {
    const loaded = loadConfigFile(resolve(ctx.cwd, values.config as string), { env: ctx.env });
    if (!loaded.ok) {
      printIssues(ctx.stderr, loaded.issues);
      return 2;
    }
    dir ??= loaded.value.state.dir;
    skewMs = loaded.value.tail.max_clock_skew;
    state = loaded.value.state;
  }
  return { dir: resolve(ctx.cwd, dir ?? '/var/lib/ledger-sentinel'), skewMs, state };
}

export const state: Command = {
  name: 'state',
  summary: 'show or reset the tail cursors, or move the state into PostgreSQL (daemon stopped)',
  usage: USAGE,
  async run(ctx) {
    let parsed: { values: Values; positionals: string[] };
    try {
      parsed = parseArgs({
        args: [...ctx.argv],
        options: {
          config: { type: 'string' },
          'state-dir': { type: 'string' },
          to: { type: 'string' },
          all: { type: 'boolean', default: false },
          json: { type: 'boolean', default: false },
          'url-file': { type: 'string' },
          force: { type: 'boolean', default: false },
        },
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      return fail(ctx, `${(err as Error).message}. Run ledger-sentinel state --help.`);
    }
    const [sub, ...streams] = parsed.positionals;
    if (sub !== 'cursors' && sub !== 'reset-cursor' && sub !== 'migrate')
      return fail(
        ctx,
        'expected a subcommand: cursors, reset-cursor or migrate. Run ledger-sentinel state --help.',
      );
    const opts = options(ctx, parsed.values);
    if (typeof opts === 'number') return opts;
    const v = parsed.values;
    if (sub === 'migrate')
      return migrateState(ctx, {
        dir: opts.dir,
        ...{
          to: v.to as string | undefined,
          urlFile: v['url-file'] as string | undefined,
          force: v.force === true,
        },
        state: opts.state,
      });
    const file = join(opts.dir, 'state.db');
    if (!existsSync(file))
      return fail(ctx, `no state at ${file}: pass --state-dir <dir> or --config <file> (state.dir)`, 1);
    const store = openStateStore({ dir: opts.dir });
    try {
      const tail = new CursorStore(store);
      if (sub === 'cursors') return showCursors(ctx, tail, opts, parsed.values.json === true);
      return resetCommand(ctx, tail, streams, parsed.values);
    } finally {
      store.close();
    }
  },
};

function showCursors(ctx: CliContext, tail: CursorStore, opts: Options, json: boolean): number {
  const rows = cursorRows(tail, Date.now(), opts.skewMs);
  ctx.stdout.write(json ? `${JSON.stringify(rows, null, 2)}\n` : formatCursorTable(rows));
  return 0;
}

function resetCommand(
  ctx: CliContext,
  tail: CursorStore,
  streams: readonly string[],
  values: Values,
): number {
  const all = values.all === true;
  if (all === streams.length > 0)
    return fail(ctx, 'reset-cursor takes one stream (e.g. tx:0.0.1234) or --all, not both or neither');
  const known = [...tail.all().keys()];
  const targets = all ? known : [...streams];
  const unknown = targets.filter((s) => !known.includes(s));
  if (unknown.length > 0)
    return fail(
      ctx,
      `no cursor for ${unknown.join(', ')}; known streams: ${known.join(', ') || '(none)'} (see \`state cursors\`)`,
      1,
    );
  const to = parseResetTarget((values.to as string | undefined) ?? 'now', Date.now());
  if (typeof to === 'string') return fail(ctx, to);
  const before = resetCursors(tail, targets, to);
  for (const [stream, old] of before)
    ctx.stdout.write(`${stream}: safe ${iso(old.safe)} → ${timestampToIso(to)}\n`);
  return 0;
}

function iso(ns: bigint): string {
  try {
    return timestampToIso(ns);
  } catch {
    return ns.toString();
  }
}
