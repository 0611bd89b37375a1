// `ledger-sentinel alerts`: the alerts of a running daemon, over its API (docs/cli.md), like `amtool alert`.
import { API_OPTIONS_USAGE, callApi, refusal, table, withApi } from '../../api/api-client.js';
import type { AlertEntry } from '../../delivery/alert-view.js';
import { parseApiCommand } from '../common/api-command.js';
import type { Command } from '../command.js';

const USAGE = `Usage: ledger-sentinel alerts [options]

The alerts of a running daemon, over its API: firing ones and those resolved in the last 24 hours, newest first,
with what holds them back (silences, acknowledgements). The ID column is what \`ledger-sentinel ack\` takes.

Options:
  --rule <id>          only this rule's
  --account <account>  only this account's (id or name)
  --severity <level>   only info, warning or critical
  --state <state>      only firing or resolved
  --json               the API's JSON
${API_OPTIONS_USAGE}

Exit codes: 0 listed, 1 the daemon refused (the reason is printed), 2 usage error, 3 the daemon cannot be reached.
`;

export const alerts: Command = {
  name: 'alerts',
  summary: 'list the alerts of a running daemon (over its API)',
  usage: USAGE,
  async run(ctx) {
    const parsed = parseApiCommand(
      ctx,
      'alerts',
      {
        rule: { type: 'string' },
        account: { type: 'string' },
        severity: { type: 'string' },
        state: { type: 'string' },
      },
      false,
    );
    if (typeof parsed === 'number') return parsed;
    const { values, target } = parsed;
    const query = new URLSearchParams();
    for (const name of ['rule', 'account', 'severity', 'state'] as const) {
      const value = values[name];
      if (value !== undefined) query.set(name, value);
    }
    return withApi('alerts', ctx.stderr, async () => {
      const answer = await callApi(target, 'GET', `/api/v1/alerts${query.size ? `?${query}` : ''}`);
      if (answer.status === 400) {
        ctx.stderr.write(`ledger-sentinel alerts: ${refusal(answer)}\n`);
        return 2;
      }
      if (answer.status !== 200) throw new Error(refusal(answer));
      const list = answer.body as AlertEntry[];
      if (values.json) ctx.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      else
        ctx.stdout.write(
          table(
            ['ID', 'Rule', 'Severity', 'Account', 'State', 'Starts At', 'Held By', 'Summary'],
            list.map(row),
          ),
        );
      return 0;
    });
  },
};

function row(a: AlertEntry): string[] {
  const held = [
    ...a.silencedBy.map((id) => `silence ${id}`),
    ...(a.acknowledgedBy ? [`ack ${a.acknowledgedBy.by}`] : []),
  ];
  const account = a.account ? `${a.account.name} (${a.account.id})` : '-';
  return [a.id, a.rule, a.severity, account, a.state, a.startsAt, held.join(', ') || '-', oneLine(a.summary)];
}

/** Ledger-controlled text on one line, control characters shown escaped: nothing can redraw the terminal. */
function oneLine(text: string): string {
  const flat = JSON.stringify(text).slice(1, -1);
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}
