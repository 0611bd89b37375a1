// `ledger-sentinel silence add|ls|expire`: silences of a running daemon, over its API (docs/cli.md), like amtool.
import { parseArgs } from 'node:util';
import {
  API_OPTIONS_USAGE,
  API_PARSE_OPTIONS,
  apiTarget,
  callApi,
  refusal,
  table,
  withApi,
  type ApiTarget,
} from '../../api/api-client.js';
import type { SilenceJson } from '../../api/silences-api.js';
import { parseDuration } from '../../config/duration.js';
import { formatMatcher, matcherOp, parseMatcher, type Matcher } from '../../delivery/matchers.js';
import { apiUsageError } from '../common/api-command.js';
import type { CliContext, Command } from '../command.js';

const USAGE = `Usage: ledger-sentinel silence add [options] <matcher>...
       ledger-sentinel silence ls [options]
       ledger-sentinel silence expire [options] <id>...

Silences of a running daemon, over its API. A matcher is name="value", name!="value", name=~"regex" or
name!~"regex" on rule, account (id or name), severity or any label; a silenced delivery is recorded, not sent.

  add     creates a silence and prints its id (needs the API token)
  ls      active and pending silences, config-file ones included (read-only); --expired adds expired ones
  expire  ends silences now and prints each one it ended (needs the API token)

Options:
  --duration <d>       add: how long, e.g. 2h, 30m (default 1h)
  --end <time>         add: until this ISO 8601 time instead of --duration
  --start <time>       add: from this ISO 8601 time (default now)
  --author <name>      add: who silences (default $USER, else $LOGNAME)
  --comment <text>     add: why
  --expired            ls: include expired silences
  --quiet              ls: ids only
  --json               ls: the API's JSON
${API_OPTIONS_USAGE}

Exit codes: 0 done, 1 the daemon refused (the reason is printed), 2 usage error, 3 the daemon cannot be reached.
`;

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      ...API_PARSE_OPTIONS,
      duration: { type: 'string' },
      end: { type: 'string' },
      start: { type: 'string' },
      author: { type: 'string' },
      comment: { type: 'string', default: '' },
      expired: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  });
}

type Parsed = ReturnType<typeof parse>;

export const silence: Command = {
  name: 'silence',
  summary: 'add, list or expire silences of a running daemon (over its API)',
  usage: USAGE,
  async run(ctx) {
    let parsed: Parsed;
    try {
      parsed = parse(ctx.argv);
    } catch (err) {
      return usageError(ctx, (err as Error).message);
    }
    const [action, ...rest] = parsed.positionals;
    const target = apiTarget(parsed.values, ctx.env, ctx.cwd);
    if (typeof target === 'string') return usageError(ctx, target);
    if (action === 'add') return withApi('silence', ctx.stderr, () => add(ctx, target, parsed, rest));
    if (action === 'ls' || action === 'query')
      return withApi('silence', ctx.stderr, () => list(ctx, target, parsed));
    if (action === 'expire') {
      if (rest.length === 0) return usageError(ctx, 'expire: name the silence id(s) to expire');
      return withApi('silence', ctx.stderr, () => expire(ctx, target, rest));
    }
    return usageError(ctx, `expected add, ls or expire, got ${JSON.stringify(action ?? '')}`);
  },
};

function usageError(ctx: CliContext, message: string): number {
  return apiUsageError(ctx, 'silence', message);
}

async function add(ctx: CliContext, target: ApiTarget, parsed: Parsed, texts: string[]): Promise<number> {
  const matchers: Matcher[] = [];
  for (const text of texts) {
    const m = parseMatcher(text);
    if (typeof m === 'string') return usageError(ctx, m);
    matchers.push(m);
  }
  if (matchers.length === 0)
    return usageError(ctx, 'add: give at least one matcher, e.g. rule="large-debit"');
  const { values } = parsed;
  const startMs = values.start === undefined ? Date.now() : Date.parse(values.start);
  const durationMs = parseDuration(values.duration ?? '1h');
  if (Number.isNaN(startMs))
    return usageError(ctx, `--start: expected an ISO 8601 time, got ${values.start}`);
  if (values.end === undefined && durationMs === undefined)
    return usageError(ctx, `--duration: expected a duration like 2h or 30m, got ${values.duration}`);
  const endsAt = values.end ?? new Date(startMs + (durationMs ?? 0)).toISOString();
  // As amtool: the user running the command, from the environment (USER, else LOGNAME; USERNAME on Windows).
  const author = values.author ?? (ctx.env.USER || ctx.env.LOGNAME || ctx.env.USERNAME);
  if (!author) return usageError(ctx, 'add: say who silences with --author (USER and LOGNAME are not set)');
  const body = {
    matchers: matchers.map(formatMatcher),
    ...(values.start === undefined ? {} : { startsAt: values.start }),
    endsAt,
    createdBy: author,
    comment: values.comment ?? '',
  };
  const answer = await callApi(target, 'POST', '/api/v1/silences', body);
  if (answer.status !== 200) throw new Error(refusal(answer));
  ctx.stdout.write(`${(answer.body as { silenceID: string }).silenceID}\n`);
  return 0;
}

async function list(ctx: CliContext, target: ApiTarget, parsed: Parsed): Promise<number> {
  const answer = await callApi(target, 'GET', '/api/v1/silences');
  if (answer.status !== 200) throw new Error(refusal(answer));
  const all = answer.body as SilenceJson[];
  const shown = parsed.values.expired ? all : all.filter((s) => s.status.state !== 'expired');
  if (parsed.values.json) ctx.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
  else if (parsed.values.quiet) ctx.stdout.write(shown.map((s) => `${s.id}\n`).join(''));
  else
    ctx.stdout.write(
      table(['ID', 'Matchers', 'Starts At', 'Ends At', 'State', 'Created By', 'Comment'], shown.map(row)),
    );
  return 0;
}

function described(s: SilenceJson): string {
  const [, matchers, , , , createdBy, comment] = row(s);
  return `${s.id}: ${matchers} (by ${createdBy}${comment ? `: ${comment}` : ''})`;
}

function row(s: SilenceJson): string[] {
  const matchers = s.matchers.map((m) =>
    formatMatcher({ name: m.name, value: m.value, op: matcherOp(m.isRegex, m.isEqual) }),
  );
  const state = s.readOnly ? `${s.status.state} (config)` : s.status.state;
  return [s.id, matchers.join(' '), s.startsAt, s.endsAt, state, s.createdBy, s.comment];
}

/** Expires each id and prints what it was (`expired <id>: <matchers> (by …: …)`), as it will no longer be listed. */
async function expire(ctx: CliContext, target: ApiTarget, ids: readonly string[]): Promise<number> {
  let failed = 0;
  for (const id of ids) {
    const path = `/api/v1/silences/${encodeURIComponent(id)}`;
    const before = await callApi(target, 'GET', path);
    const answer = await callApi(target, 'DELETE', path);
    if (answer.status === 200) {
      ctx.stdout.write(`expired ${before.status === 200 ? described(before.body as SilenceJson) : id}\n`);
      continue;
    }
    failed++;
    ctx.stderr.write(`ledger-sentinel silence: ${id}: ${refusal(answer)}\n`);
  }
  return failed === 0 ? 0 : 1;
}
