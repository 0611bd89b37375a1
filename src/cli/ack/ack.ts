// `ledger-sentinel ack <id>`: acknowledges an alert of a running daemon, over its API (docs/cli.md): its repeats
// stop until it resolves or the ack expires.
import { API_OPTIONS_USAGE, callApi, refusal, withApi } from '../../api/api-client.js';
import { parseDuration } from '../../config/duration.js';
import { apiUsageError, parseApiCommand } from '../common/api-command.js';
import type { CliContext, Command } from '../command.js';

const USAGE = `Usage: ledger-sentinel ack [options] <id>

Acknowledges an alert (its ID as \`ledger-sentinel alerts\` prints it): its repeats and reminders are not sent
until it resolves or the ack expires; the resolve is still sent and names the ack. An alert of a rule without a
window never resolves: its ack lasts 24 hours unless --expires says otherwise. Needs the API token.

Options:
  --author <name>      who acknowledges (default $USER, else $LOGNAME)
  --comment <text>     why
  --expires <d>        ends the ack after this long, e.g. 4h
${API_OPTIONS_USAGE}

Exit codes: 0 acknowledged, 1 the daemon refused (unknown or resolved alert, bad token), 2 usage error, 3 the
daemon cannot be reached.
`;

export const ack: Command = {
  name: 'ack',
  summary: 'acknowledge an alert of a running daemon: its repeats stop (over its API)',
  usage: USAGE,
  async run(ctx) {
    const parsed = parseApiCommand(
      ctx,
      'ack',
      {
        author: { type: 'string' },
        comment: { type: 'string', default: '' },
        expires: { type: 'string' },
      },
      true,
      (positionals) => (positionals.length === 1 ? undefined : 'expected one alert id'),
    );
    if (typeof parsed === 'number') return parsed;
    const { values, positionals, target } = parsed;
    const id = positionals[0] as string;
    const author = values.author ?? (ctx.env.USER || ctx.env.LOGNAME || ctx.env.USERNAME);
    if (!author) return usageError(ctx, 'say who acknowledges with --author (USER and LOGNAME are not set)');
    const expiresMs = values.expires === undefined ? undefined : parseDuration(values.expires);
    if (values.expires !== undefined && expiresMs === undefined)
      return usageError(ctx, `--expires: expected a duration like 4h, got ${values.expires}`);
    const body = {
      by: author,
      comment: values.comment ?? '',
      ...(expiresMs === undefined ? {} : { expiresAt: new Date(Date.now() + expiresMs).toISOString() }),
    };
    return withApi('ack', ctx.stderr, async () => {
      const answer = await callApi(target, 'POST', `/api/v1/alerts/${encodeURIComponent(id)}/ack`, body);
      if (answer.status !== 200) throw new Error(refusal(answer));
      ctx.stdout.write(`acknowledged ${id}\n`);
      return 0;
    });
  },
};

function usageError(ctx: CliContext, message: string): number {
  return apiUsageError(ctx, 'ack', message);
}
