// Real loopback receivers for the delivery tests (a Slack-like webhook, a second Slack webhook, a plain webhook,
// an SMTP server) and a delivery worker wired to them on an injected clock. Closed after each test by closeAll().
import { startHttpSink, type HttpSink } from './http-sink.js';
import { startSlackSink, type SlackSink } from './slack-sink.js';
import { startSmtpServer, type SmtpSink } from './smtp.js';
import { createMetrics } from '../../src/observability/metrics.js';
import type { Alert } from '../../src/rules/alert/alert.js';
import { openStateStore } from '../../src/state/store.js';
import { createChannels } from '../../src/delivery/channels.js';
import { createDeliveryWorker, type DeliveryWorkerOptions } from '../../src/delivery/delivery-worker.js';
import { createOutbox } from '../../src/delivery/outbox.js';
import { createPauseBoard } from '../../src/delivery/pause-board.js';
import { Notifiers } from '../../src/notifiers/schema.js';
import { testAlert } from './alerts.js';
import { testClock } from './clock.js';
import { captureLogs } from './log-capture.js';

/** The default max_retry_after. */
export const CAP_MS = 60_000;
const closers: { close(): Promise<void> }[] = [];

/** Closes every receiver started since the last call (call it in afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(closers.splice(0).map((c) => c.close()));
}

/** Registers a server to close with closeAll(). */
export function closeLater(server: { close(): Promise<void> }): void {
  closers.push(server);
}

export interface Receivers {
  readonly slack: SlackSink;
  readonly slack2: SlackSink;
  readonly hook: HttpSink;
  readonly smtp: SmtpSink;
}

export async function receivers(): Promise<Receivers> {
  const [slack, slack2, hook, smtp] = await Promise.all([
    startSlackSink(),
    startSlackSink('OTHERtoken'),
    startHttpSink(),
    startSmtpServer(),
  ]);
  closers.push(slack, slack2, hook, smtp);
  return { slack, slack2, hook, smtp };
}

function notifierConfigs(r: Receivers, slackExtra: Record<string, unknown>) {
  return Notifiers.parse({
    slack: { kind: 'slack', webhook_url: r.slack.webhookUrl, group_wait: '0s', ...slackExtra },
    slack2: { kind: 'slack', webhook_url: r.slack2.webhookUrl, group_wait: '0s' },
    hook: { kind: 'webhook', url: `${r.hook.origin}/hook`, signing_key: 'k', group_wait: '0s' },
    mail: {
      kind: 'email',
      host: '127.0.0.1',
      port: r.smtp.port,
      security: 'none',
      from: 'sentinel@example.com',
      to: ['ops@example.com'],
      group_wait: '0s',
    },
  });
}

/** Notifiers slack, slack2, hook and mail on the receivers; `slackExtra` overrides keys of `slack`. */
export function deliverySetup(
  r: Receivers,
  slackExtra: Record<string, unknown> = {},
  extra: Partial<DeliveryWorkerOptions> = {},
) {
  return deliverySetupFor(notifierConfigs(r, slackExtra), extra);
}

/** A delivery worker over the given notifiers, an in-memory outbox and a test clock. */
export function deliverySetupFor(notifiers: Notifiers, extra: Partial<DeliveryWorkerOptions> = {}) {
  const clock = testClock();
  const logs = captureLogs();
  const deps = { now: clock.now, sleep: clock.sleep, logger: logs.logger, stdout: process.stdout };
  const channels = createChannels(notifiers, deps);
  const store = openStateStore({ dir: ':memory:' });
  const outbox = createOutbox(store, clock.now);
  const metrics = createMetrics();
  const pauses = createPauseBoard();
  const worker = createDeliveryWorker({
    ...deps,
    outbox,
    channels,
    random: () => 0,
    metrics,
    pauses,
    ...extra,
  });
  return { clock, outbox, metrics, worker, pauses, logs, store, deps };
}

/** An alert of its own rule (one group each). */
export function alertFor(id: string): Alert {
  return testAlert({ id, key: id, ruleId: `rule-${id}` });
}
