// The world around the daemon that both fault worlds (SQLite: fault-world.ts; PostgreSQL replicas:
// pg-fault-world.ts) start the same way: the living ledger behind a hostile query service, a hostile Slack and
// SMTP server, and a webhook sink whose arrivals are timed (the clean streams' latency).
import { startLivingLedger } from '@ledger-sentinel/simulator/living-ledger-server';
import { startHttpSink } from '../http-sink.js';
import type { ChannelDeliveries } from './fault-invariants.js';
import type { FaultPlan } from './fault-plan.js';
import { startHostileQueryService } from './hostile-query-service.js';
import { startHostileSlack } from './hostile-slack.js';
import { startHostileSmtp } from './hostile-smtp.js';

type Ledger = Awaited<ReturnType<typeof startLivingLedger>>;

export interface HostileServices {
  readonly ledger: Ledger;
  /** The query service's URL, for the daemon's config. */
  readonly queryUrl: string;
  /** The notifiers section that sends to the three receivers. */
  readonly notifiers: string;
  readonly hookArrivals: readonly { at: number; body: string }[];
  /** What each channel received so far. */
  channels(): ChannelDeliveries[];
  /** Ends every service fault (the world turns calm). */
  heal(): void;
  /** What the services applied, for the report. */
  stats(): Record<'query' | 'smtp' | 'slack', Record<string, number>>;
  close(): Promise<void>;
}

export async function startHostileServices(
  plan: FaultPlan,
  seed: string,
  faulted: ReadonlySet<string>,
): Promise<HostileServices> {
  const ledger = await startLivingLedger({ seed, tps: 5, lagMs: 300, autoAdvanceMs: 200 });
  const query = await startHostileQueryService({ upstream: ledger.url, plan: plan.query, faulted });
  const slack = await startHostileSlack(plan.slack);
  const smtp = await startHostileSmtp(plan.smtp);
  const hookArrivals: { at: number; body: string }[] = [];
  const hook = await startHttpSink((request) => {
    hookArrivals.push({ at: Date.now(), body: request.body });
    return { status: 200, body: 'ok' };
  });
  return {
    ledger,
    queryUrl: query.url,
    notifiers: notifiers(slack.webhookUrl, smtp.port, `${hook.origin}/hook`),
    hookArrivals,
    channels: () => [
      { name: 'slack', bodies: slack.accepted() },
      { name: 'email', bodies: smtp.accepted },
      { name: 'webhook', bodies: hookArrivals.map((a) => a.body) },
    ],
    heal: () => [query, slack, smtp].forEach((service) => service.heal()),
    stats: () => ({ query: query.stats(), smtp: smtp.stats(), slack: slackStats(slack.log) }),
    close: async () => {
      await Promise.all([query.close(), slack.close(), smtp.close(), hook.close(), ledger.close()]);
    },
  };
}

// Slack's Retry-After is capped at 5 s (the default cap is 60 s) so that a capped wait ends inside the run's
// settle window: a huge Retry-After must delay an alert, never lose it, and the run has to be able to see that.
function notifiers(slackUrl: string, smtpPort: number, hookUrl: string): string {
  return [
    `  ops-slack: { kind: slack, webhook_url: ${slackUrl}, group_wait: 0s, group_max_listed: 40, min_interval: 10ms, max_retry_after: 5s }`,
    `  ops-mail: { kind: email, host: 127.0.0.1, port: ${smtpPort}, security: none, from: sentinel@example.com, to: [ops@example.com], group_wait: 0s, group_max_listed: 40, timeout: 5s }`,
    `  ops-hook: { kind: webhook, url: ${hookUrl}, signing_key: fault-properties, group_wait: 0s, group_max_listed: 40 }`,
  ].join('\n');
}

function slackStats(log: readonly { status: number | 'reset' }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const e of log) counts[String(e.status)] = (counts[String(e.status)] ?? 0) + 1;
  return counts;
}
