// Firing → resolve through the real outbox and delivery worker for each chat receiver, against its loopback
// server: each service first answers the firing with its documented rate limit (Discord's and Telegram's
// `retry_after` in the body, 429 + Retry-After for Teams and Slack), the shared retry stage honours it, and the
// resolve lands as the service's resolve — a green RESOLVED message for Teams, Discord and Telegram; for the
// Slack app a reply threaded under the firing message and that message updated, after a restart of the delivery
// side (a new state store handle and worker) between the two.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDelivery, type Delivery } from '../../src/app/delivery.js';
import { createChannels } from '../../src/delivery/channels.js';
import { createOutbox, type Outbox } from '../../src/delivery/outbox.js';
import { createMetrics } from '../../src/observability/metrics.js';
import type { Alert } from '../../src/rules/alert/alert.js';
import { Notifiers } from '../../src/notifiers/schema.js';
import { openStateStore, type StateStore } from '../../src/state/store.js';
import { testAlert } from '../helpers/alerts.js';
import { DISCORD, startDiscordSink, type DiscordSink } from '../helpers/discord-sink.js';
import { captureLogs } from '../helpers/log-capture.js';
import { SLACK_API, startSlackApiSink, type SlackApiSink } from '../helpers/slack-api-sink.js';
import { TEAMS, startTeamsSink, type TeamsSink } from '../helpers/teams-sink.js';
import { TELEGRAM, startTelegramSink, type TelegramSink } from '../helpers/telegram-sink.js';

const TOKEN = '123456789:AAHlifecycleTOKENxxxxxxxxxxxxxxxxx';
const CHANNELS = ['teams', 'discord', 'telegram', 'slack-app'];

interface Side {
  readonly store: StateStore;
  readonly outbox: Outbox;
  readonly delivery: Delivery;
}

describe('chat receivers through the outbox: firing, a rate limit, then the resolve', () => {
  let dir: string;
  let teams: TeamsSink;
  let discord: DiscordSink;
  let telegram: TelegramSink;
  let slack: SlackApiSink;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chat-lifecycle-'));
    [teams, discord, telegram, slack] = await Promise.all([
      startTeamsSink(),
      startDiscordSink(),
      startTelegramSink(TOKEN),
      startSlackApiSink(),
    ]);
  });
  afterEach(async () => {
    await Promise.all([teams, discord, telegram, slack].map((s) => s?.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  function start(): Side {
    const store = openStateStore({ dir });
    const outbox = createOutbox(store, Date.now);
    const common = { group_wait: '0s', max_retry_after: '1s' };
    const notifiers = Notifiers.parse({
      teams: { kind: 'teams', webhook_url: teams.webhookUrl, ...common },
      discord: { kind: 'discord', webhook_url: discord.webhookUrl, ...common },
      telegram: {
        kind: 'telegram',
        bot_token: TOKEN,
        chat_id: '-1001234567890',
        api_url: telegram.apiUrl,
        ...common,
      },
      'slack-app': {
        kind: 'slack-app',
        bot_token: slack.token,
        channel: '#alerts',
        api_url: slack.apiUrl,
        min_interval: '10ms',
        ...common,
      },
    });
    const deps = {
      now: Date.now,
      sleep: (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }),
      logger: captureLogs().logger,
      stdout: process.stdout,
      store,
    };
    const channels = createChannels(notifiers, deps);
    const delivery = startDelivery({
      ...deps,
      outbox,
      channels,
      random: () => 0,
      metrics: createMetrics(),
      idleMs: 100,
    });
    return { store, outbox, delivery };
  }

  async function stop(side: Side): Promise<void> {
    await side.delivery.stop(2000);
    side.store.close();
  }

  function emit(side: Side, alert: Alert): void {
    side.store.transaction(() => side.outbox.enqueue(alert, CHANNELS));
    side.delivery.worker.poke();
  }

  async function until(check: () => boolean): Promise<void> {
    while (!check()) await delay(50);
  }

  const accepted = () => ({
    teams: teams.cards().length,
    discord: discord.accepted().length,
    telegram: telegram.accepted().length,
    slack: slack.messages.length,
  });

  it('delivers each firing once after its rate limit, and each resolve as that service resolves', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const firing = testAlert({ key: 'burst/0.0.1234', id: `burst/0.0.1234|firing|${startsAt}`, startsAt });
    const resolved: Alert = { ...firing, id: `burst/0.0.1234|resolved|${startsAt}`, status: 'resolved' };
    teams.script(TEAMS.throttled(1));
    discord.script(DISCORD.rateLimited(0.5));
    telegram.script(TELEGRAM.flood(1));
    slack.script(SLACK_API.rateLimited(1));

    let side = start();
    emit(side, firing);
    await until(() => Object.values(accepted()).every((n) => n === 1));
    await stop(side);
    side = start();
    emit(side, resolved);
    await until(() => Object.values(accepted()).every((n) => n === 2) && slack.updates.length === 1);
    await stop(side);

    expect([teams, discord, telegram, slack].map((s) => s.requests[0]?.answer.status)).toEqual([
      429, 429, 429, 429,
    ]);
    expect(teams.cards().map((c) => c.body[0]?.style)).toEqual(['attention', 'good']);
    expect(JSON.stringify(teams.cards()[1]?.body[0])).toContain('RESOLVED: ');
    expect(discord.accepted().map((m) => m.content?.split(':')[0])).toEqual(['**CRITICAL**', '**RESOLVED**']);
    expect(telegram.accepted().map((m) => m.shown.split(':')[0])).toEqual(['🔴 CRITICAL', '✅ RESOLVED']);
    const [root, reply] = slack.messages;
    expect(root?.threadTs).toBeUndefined();
    expect(reply?.threadTs).toBe(root?.ts);
    expect(slack.updates.map((u) => u.ts)).toEqual([root?.ts]);
    expect(slack.messages.find((m) => m.ts === root?.ts)?.edits.at(-1)).toMatch(/^RESOLVED: /);
  }, 60_000);
});
