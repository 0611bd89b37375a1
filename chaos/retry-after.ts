// Scenario 11: Slack answers every request with 429 and a hostile Retry-After (3600 s, an HTTP date an hour
// ahead, garbage) for a while (--quick: 20 s, max_retry_after 5s; full: 150 s with the default 60 s cap), while
// alerts for one account go to Slack, email and a webhook. Email and the webhook must keep delivering during the
// pause (their max delay is the figure), Slack must get everything once after it recovers, nothing is
// dead-lettered, the depth gauge shows the paused rows, and Slack is never retried sooner than the cap.
import { checked, figure, maxOf, round, type Figure } from '../bench/lib/figures.js';
import { metricsText, spawnSentinel, until } from '../bench/lib/daemon-process.js';
import { sentinelDir } from '../bench/lib/sentinel-config.js';
import { startLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { startHttpSink, type SinkResponse } from '../test/helpers/http-sink.js';
import type { ChaosContext, Scenario } from './lib/scenario.js';
import { emailNotifier, mailBodies, startChaosSmtp } from './lib/smtp.js';

const SUITE = '11 Retry-After and channel independence';
const WATCHED = '0.0.1500';
const TOLERANCE_MS = 50;
const RULE = `rules:
  - id: every-transaction
    summary: "memo {{memo}}"
    description: "Memo: {{memo}}"
    throttle: 0s
    notify: [ops-slack, ops-mail, ops-hook]
`;

type Hostile = 'seconds' | 'date' | 'garbage';
const HOSTILE: readonly Hostile[] = ['seconds', 'date', 'garbage'];

function retryAfter(kind: Hostile, now: number): string {
  if (kind === 'seconds') return '3600';
  if (kind === 'date') return new Date(now + 3_600_000).toUTCString();
  return 'soon-ish, maybe -1e9';
}

/** Slack: 429 with the next hostile Retry-After while down, 200 otherwise; every request's time and answer kept. */
async function pausingSlack() {
  const state = { down: false, n: 0 };
  const log: { at: number; status: number; kind?: Hostile }[] = [];
  const token = `chaosRAtoken${Math.random().toString(36).slice(2, 10)}`;
  const sink = await startHttpSink((): SinkResponse => {
    const at = Date.now();
    if (!state.down) return (log.push({ at, status: 200 }), { status: 200, body: 'ok' });
    const kind = HOSTILE[state.n++ % HOSTILE.length] ?? 'seconds';
    log.push({ at, status: 429, kind });
    return { status: 429, headers: { 'retry-after': retryAfter(kind, at) }, body: 'rate_limited' };
  });
  return { sink, log, token, webhookUrl: `${sink.origin}/services/T1/B1/${token}`, state };
}

/** Marker ids per received message: duplicates show up as a count above 1. */
function markerCounts(bodies: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const body of bodies)
    for (const id of new Set(body.match(/ra11m\d+x/g) ?? [])) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** Requests sooner after a 429 with a numeric or date Retry-After than the cap allows. */
function soonerThanCap(
  log: readonly { at: number; status: number; kind?: Hostile }[],
  capMs: number,
): number {
  return log.filter((e, i) => {
    const next = log[i + 1];
    return e.kind !== undefined && e.kind !== 'garbage' && next && next.at - e.at < capMs - TOLERANCE_MS;
  }).length;
}

// Longer than 60 lines on purpose: one scenario, read top to bottom (set up, pause, inject, recover, measure).
async function run(ctx: ChaosContext): Promise<Figure[]> {
  const pauseMs = ctx.quick ? 20_000 : 150_000;
  const capMs = ctx.quick ? 5_000 : 60_000;
  const markers = ctx.quick ? 8 : 12;
  const ledger = await startLivingLedger({
    seed: 'chaos-retry-after',
    tps: 20,
    lagMs: 300,
    autoAdvanceMs: 200,
  });
  const slack = await pausingSlack();
  const hook = await startHttpSink();
  const smtp = await startChaosSmtp();
  ctx.session.secrets.set('slack webhook token (retry-after run)', slack.token);
  ctx.session.secrets.set('SMTP password (retry-after run)', smtp.password);
  const dir = sentinelDir();
  const cap = ctx.quick ? ', max_retry_after: 5s' : '';
  dir.writeConfig({
    ledgerUrl: ledger.url,
    accounts: [WATCHED],
    pollInterval: '300ms',
    notifiers: [
      `  ops-slack: { kind: slack, webhook_url: ${slack.webhookUrl}, group_wait: 0s, min_interval: 10ms, group_max_listed: 40${cap} }`,
      emailNotifier('ops-mail', smtp),
      `  ops-hook: { kind: webhook, url: ${hook.origin}/hook, signing_key: chaos-key, group_wait: 0s }`,
    ].join('\n'),
  });
  dir.writeRule('every.yaml', RULE);
  const daemon = spawnSentinel(['run', '--config', dir.configPath]);
  const injectedAt = new Map<string, number>();
  const seenAt = { mail: new Map<string, number>(), hook: new Map<string, number>() };
  const watch = setInterval(() => {
    const now = Date.now();
    for (const id of markerCounts(mailBodies(smtp)).keys())
      if (!seenAt.mail.has(id)) seenAt.mail.set(id, now);
    for (const id of markerCounts(hook.requests.map((r) => r.body)).keys())
      if (!seenAt.hook.has(id)) seenAt.hook.set(id, now);
  }, 20);
  try {
    const url = await daemon.httpUrl(30_000);
    slack.state.down = true;
    const pauseStart = Date.now();
    for (let i = 0; i < markers; i++) {
      const id = `ra11m${i}x`;
      injectedAt.set(id, Date.now());
      ledger.ledger.inject({
        payer: WATCHED,
        memo: id,
        tag: id,
        transfers: [
          { account: WATCHED, amount: -1n },
          { account: '0.0.1001', amount: 1n },
        ],
      });
      await new Promise((r) => setTimeout(r, Math.floor((pauseMs * 0.6) / markers)));
    }
    await until(() => seenAt.mail.size >= markers && seenAt.hook.size >= markers, pauseMs * 0.4, 50);
    const depthText = await metricsText(url);
    const slackDepth = Number(
      /ledger_sentinel_outbox_depth\{notifier="ops-slack"\} (\d+)/.exec(depthText)?.[1] ?? 0,
    );
    await until(() => Date.now() - pauseStart >= pauseMs, pauseMs, 100);
    const pauseEnd = Date.now();
    slack.state.down = false;
    await until(
      () =>
        markerCounts(slack.sink.requests.filter((r) => r.answer.status === 200).map((r) => r.body)).size >=
        markers,
      capMs * 3 + 15_000,
      100,
    );
    await new Promise((r) => setTimeout(r, 1000)); // a late duplicate would arrive now
    const metrics = await metricsText(url);
    const slackCounts = markerCounts(
      slack.sink.requests.filter((r) => r.answer.status === 200).map((r) => r.body),
    );
    const mailCounts = markerCounts(mailBodies(smtp));
    const hookCounts = markerCounts(hook.requests.map((r) => r.body));
    const lost = (counts: Map<string, number>) =>
      [...injectedAt.keys()].filter((id) => !counts.has(id)).length;
    const duplicated = (counts: Map<string, number>) => [...counts.values()].filter((n) => n > 1).length;
    const delays = [...injectedAt].flatMap(([id, at]) =>
      [seenAt.mail.get(id), seenAt.hook.get(id)].map((seen) => (seen === undefined ? Infinity : seen - at)),
    );
    const maxDelayS = round(maxOf(delays) / 1000, 1);
    const deliveredDuringPause = [...injectedAt.keys()].filter(
      (id) => (seenAt.mail.get(id) ?? Infinity) < pauseEnd && (seenAt.hook.get(id) ?? Infinity) < pauseEnd,
    ).length;
    const deadLetters = /ledger_sentinel_dead_letters_total\{[^}]*\} (\d+)/g;
    const dead = [...metrics.matchAll(deadLetters)].reduce((n, m) => n + Number(m[1]), 0);
    const during = slack.log.filter((e) => e.status === 429);
    ctx.log(
      `Slack answered 429 ${during.length} times in ${round(pauseMs / 1000)} s (cap ${capMs / 1000} s)`,
    );
    return [
      figure(SUITE, 'alerts injected during the Slack pause', markers),
      checked(
        SUITE,
        'lost (Slack, email, webhook)',
        lost(slackCounts) + lost(mailCounts) + lost(hookCounts),
        '==',
        0,
      ),
      checked(
        SUITE,
        'duplicated (Slack, email, webhook)',
        duplicated(slackCounts) + duplicated(mailCounts) + duplicated(hookCounts),
        '==',
        0,
      ),
      checked(SUITE, 'dead-lettered', dead, '==', 0),
      checked(SUITE, 'email+webhook delivered before the pause ended', deliveredDuringPause, '==', markers),
      checked(SUITE, 'max delay of email/webhook during the pause', maxDelayS, '<=', 10, { unit: 's' }),
      checked(SUITE, 'outbox_depth of the paused Slack channel', slackDepth, '>=', 1),
      checked(
        SUITE,
        'Slack retried sooner than the capped Retry-After',
        soonerThanCap(slack.log, capMs),
        '==',
        0,
      ),
      figure(SUITE, 'Slack 429 answers during the pause', during.length),
    ];
  } finally {
    clearInterval(watch);
    daemon.kill('SIGTERM');
    await daemon.exited;
    ctx.session.outputs.push({ label: 'retry-after daemon output', text: daemon.stdout() + daemon.stderr() });
    await Promise.all([slack.sink.close(), hook.close(), smtp.close(), ledger.close()]);
    dir.remove();
  }
}

export const retryAfterScenario: Scenario = { n: 11, name: 'Retry-After and channel independence', run };
