// Scenario 6: every hostile memo of the simulator (mentions, links, mrkdwn, HTML and script, header injection,
// 100 KB, invalid UTF-8, …) reaches Slack and email through a rule that alerts on every transaction of one watched
// account. Slack payloads: 0 unescaped mentions or links; email: 0 unescaped HTML, 0 injected headers.
import { checked, figure, type Figure } from '../bench/lib/figures.js';
import { until } from '../bench/lib/daemon-process.js';
import { sentinelDir } from '../bench/lib/sentinel-config.js';
import { spawnSentinel } from '../bench/lib/daemon-process.js';
import { HOSTILE_MEMOS } from '@ledger-sentinel/simulator/hostile';
import { startLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { startChaosSlack } from './lib/slack.js';
import { emailNotifier, startChaosSmtp } from './lib/smtp.js';

const SUITE = '6 hostile memos';
const WATCHED = '0.0.1500';

const RULE = `rules:
  - id: every-transaction
    summary: "memo {{memo}}"
    description: "Memo: {{memo}} / {{account.name}}"
    throttle: 0s
    notify: [ops-slack, ops-mail]
`;

/** Mentions and links a Slack client would act on: <!channel>, <!here>, <@U…>, <#C…>, <!subteam^…>, <http…|…>. */
const SLACK_ACTIVE = [/<![a-z^]/i, /<@[A-Z0-9]/, /<#[A-Z0-9]/, /<https?:\/\/evil/i, /<javascript:/i];
/** Tags from the hostile memos that would render or run in a mail client (escaped text like `onerror=` is inert). */
const HTML_ACTIVE = [
  /<script\b/i,
  /<img\b/i,
  /<a href="javascript:/i,
  /<\/tr><\/table><a/i,
  /X-Injected: 1\s*<html>/i,
];

/**
 * Every string Slack would parse for mentions and links. A `plain_text` text object is shown as written (Slack
 * applies no markup there, so `<!channel>` in a header is inert text): it is skipped.
 */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object' && (value as { type?: unknown }).type !== 'plain_text')
    for (const v of Object.values(value)) strings(v, out);
  return out;
}

export function slackViolations(body: string): number {
  const texts = strings(JSON.parse(body));
  return texts.reduce((n, t) => n + SLACK_ACTIVE.filter((re) => re.test(t)).length, 0);
}

export function htmlViolations(html: string): number {
  return HTML_ACTIVE.filter((re) => re.test(html)).length;
}

async function run(ctx: ChaosContext): Promise<Figure[]> {
  const ledger = await startLivingLedger({ seed: 'chaos-hostile', tps: 20, lagMs: 300, autoAdvanceMs: 200 });
  const slack = await startChaosSlack();
  const smtp = await startChaosSmtp();
  ctx.session.secrets.set('slack webhook token (hostile run)', slack.token);
  ctx.session.secrets.set('SMTP password (hostile run)', smtp.password);
  const dir = sentinelDir();
  dir.writeConfig({
    ledgerUrl: ledger.url,
    accounts: [WATCHED],
    pollInterval: '300ms',
    notifiers: `  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, group_wait: 0s, min_interval: 10ms }\n${emailNotifier('ops-mail', smtp)}`,
  });
  dir.writeRule('every.yaml', RULE);
  const daemon = spawnSentinel(['run', '--config', dir.configPath]);
  try {
    await daemon.waitFor((o) => o.includes('"msg":"started"'));
    for (const memo of HOSTILE_MEMOS) {
      const slackBefore = slack.accepted().length;
      const mailBefore = smtp.messages.length;
      ledger.ledger.inject({
        payer: WATCHED,
        memo: memo.bytes,
        tag: memo.name,
        transfers: [
          { account: WATCHED, amount: -1n },
          { account: '0.0.1001', amount: 1n },
        ],
      });
      const arrived = await until(
        () => slack.accepted().length > slackBefore && smtp.messages.length > mailBefore,
        30_000,
        100,
      );
      if (!arrived) ctx.log(`${SUITE}: no alert for memo ${memo.name}`);
    }
    const payloads = slack.accepted();
    const slackBad = payloads.reduce((n, b) => n + slackViolations(b), 0);
    const htmlBad = smtp.messages.reduce(
      (n, m) => n + htmlViolations(typeof m.html === 'string' ? m.html : ''),
      0,
    );
    for (const m of smtp.messages) {
      const html = typeof m.html === 'string' ? m.html : '';
      const hits = HTML_ACTIVE.filter((re) => re.test(html));
      if (hits.length) ctx.log(`${SUITE}: ${hits.join(' ')} in mail "${m.subject?.slice(0, 60)}"`);
    }
    const injectedHeaders = smtp.messages.filter((m) => m.headers.has('x-injected')).length;
    const controlSlack = slackViolations(JSON.stringify({ text: HOSTILE_MEMOS[0]?.bytes.toString() }));
    // and a raw memo in a mrkdwn text object is caught too
    const controlMrkdwn = slackViolations(
      JSON.stringify({ blocks: [{ text: { type: 'mrkdwn', text: HOSTILE_MEMOS[0]?.bytes.toString() } }] }),
    );
    const controlHtml = htmlViolations(
      HOSTILE_MEMOS.find((m) => m.name === 'html-script')?.bytes.toString() ?? '',
    );
    return [
      figure(SUITE, 'hostile memos injected', HOSTILE_MEMOS.length),
      checked(SUITE, 'Slack messages received', payloads.length, '>=', HOSTILE_MEMOS.length),
      checked(SUITE, 'emails received', smtp.messages.length, '>=', HOSTILE_MEMOS.length),
      checked(
        SUITE,
        'control: raw memos are caught by the checks',
        controlSlack > 0 && controlMrkdwn > 0 && controlHtml > 0 ? 1 : 0,
        '==',
        1,
      ),
      checked(SUITE, 'unescaped mentions or links in Slack payloads', slackBad, '==', 0),
      checked(SUITE, 'unescaped HTML in email', htmlBad, '==', 0),
      checked(SUITE, 'injected mail headers', injectedHeaders, '==', 0),
    ];
  } finally {
    daemon.kill('SIGTERM');
    await daemon.exited;
    ctx.session.outputs.push({ label: 'hostile daemon output', text: daemon.stdout() + daemon.stderr() });
    await slack.close();
    await smtp.close();
    await ledger.close();
    dir.remove();
  }
}

export const hostileMemos: Scenario = { n: 6, name: 'hostile memos', run };
