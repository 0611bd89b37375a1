import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SLACK_API, startSlackApiSink, type SlackApiSink } from '../../../test/helpers/slack-api-sink.js';
import { testAlert, testAlerts } from '../../../test/helpers/alerts.js';
import { testNotifierDeps } from '../../../test/helpers/notifier-deps.js';
import { openStateStore, type StateStore } from '../../state/store.js';
import type { Alert } from '../../rules/alert/alert.js';
import { slackApp } from './slack-app.js';

let sink: SlackApiSink | undefined;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
  await sink?.close();
  sink = undefined;
});

const signal = () => new AbortController().signal;
const firing = testAlert({ key: 'k1', id: 'k1|firing|t0', startsAt: '2023-11-14T22:13:01.000Z' });
const resolved: Alert = {
  ...firing,
  id: 'k1|resolved|t0',
  status: 'resolved',
  endsAt: '2023-11-14T23:00:00.000Z',
};

function tempStore(): { store: StateStore; reopen(): StateStore } {
  const dir = mkdtempSync(join(tmpdir(), 'slack-app-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  let store = openStateStore({ dir });
  cleanup.push(() => store.close());
  return {
    store,
    reopen() {
      store.close();
      store = openStateStore({ dir });
      return store;
    },
  };
}

async function notifier(extra: Record<string, unknown> = {}, store?: StateStore) {
  sink ??= await startSlackApiSink();
  const config = slackApp.config.parse({
    kind: 'slack-app',
    bot_token: sink.token,
    channel: '#alerts',
    api_url: sink.apiUrl,
    min_interval: '0s',
    ...extra,
  });
  return slackApp.create('ops-app', config, { ...testNotifierDeps(), ...(store ? { store } : {}) });
}

describe('slack-app notifier against a Slack-Web-API-like server', () => {
  it('posts the firing alert, threads the resolve under it and updates it to show it resolved', async () => {
    const n = await notifier();

    await n.send({ kind: 'single', alert: firing }, signal());
    await n.send({ kind: 'single', alert: resolved }, signal());

    const [root, reply] = sink!.messages;
    expect(root?.threadTs).toBeUndefined();
    expect(root?.text).toMatch(/^:red_circle: \[CRITICAL\]/);
    expect(reply?.threadTs).toBe(root?.ts);
    expect(reply?.text).toMatch(/^RESOLVED: /);
    expect(sink!.updates).toEqual([
      { channel: 'C0ALERTS', ts: root?.ts, text: expect.stringMatching(/^RESOLVED: /) },
    ]);
    expect(root?.args.unfurl_links).toBe('false');
  });

  it('posts neither twice when the outbox hands them over again (a crash before it recorded them)', async () => {
    const n = await notifier();

    for (const alert of [firing, firing, resolved, resolved])
      await n.send({ kind: 'single', alert }, signal());

    expect(sink!.messages).toHaveLength(2);
    expect(sink!.updates).toHaveLength(1);
  });

  it('threads a reminder of the same episode under the first message', async () => {
    const n = await notifier();
    const reminder = { ...firing, id: `${firing.id}|repeat-1` };

    await n.send({ kind: 'single', alert: firing }, signal());
    await n.send({ kind: 'single', alert: reminder }, signal());

    expect(sink!.messages[1]?.threadTs).toBe(sink!.messages[0]?.ts);
  });

  it('threads the reminders of a digest under the digest message', async () => {
    const n = await notifier();
    const alerts = testAlerts(2).map((a, i) => ({ ...a, key: `d${i}` }));
    const reminders = alerts.map((a) => ({ ...a, id: `${a.id}|repeat-1` }));

    await n.send({ kind: 'digest', ruleId: 'large-debit', alerts }, signal());
    await n.send({ kind: 'digest', ruleId: 'large-debit', alerts: reminders }, signal());

    expect(sink!.messages.map((m) => m.threadTs)).toEqual([undefined, sink!.messages[0]?.ts]);
  });

  it('updates a digest message once every alert it announced has resolved', async () => {
    const n = await notifier();
    const alerts = testAlerts(2).map((a, i) => ({ ...a, key: `d${i}` }));
    const resolves = alerts.map((a) => ({ ...a, id: `${a.id}|resolved`, status: 'resolved' as const }));

    await n.send({ kind: 'digest', ruleId: 'large-debit', alerts }, signal());
    await n.send({ kind: 'single', alert: resolves[0]! }, signal());
    const updatesAfterOne = sink!.updates.length;
    await n.send({ kind: 'single', alert: resolves[1]! }, signal());

    expect(updatesAfterOne).toBe(0);
    expect(sink!.messages.filter((m) => m.threadTs === sink!.messages[0]?.ts)).toHaveLength(2);
    expect(sink!.updates).toHaveLength(1);
  });

  it('keeps the ts in the state store: after a restart the resolve threads under the message posted before', async () => {
    const state = tempStore();
    await (await notifier({}, state.store)).send({ kind: 'single', alert: firing }, signal());

    const reopened = state.reopen();
    await (await notifier({}, reopened)).send({ kind: 'single', alert: resolved }, signal());

    expect(sink!.messages[1]?.threadTs).toBe(sink!.messages[0]?.ts);
    expect(sink!.updates.map((u) => u.ts)).toEqual([sink!.messages[0]?.ts]);
  });

  it('posts a resolve on its own when it has no message to thread under', async () => {
    const n = await notifier();

    await n.send({ kind: 'single', alert: resolved }, signal());

    expect(sink!.messages.map((m) => m.threadTs)).toEqual([undefined]);
  });

  it('lets the thread reply stand when the message can no longer be edited', async () => {
    const n = await notifier();
    await n.send({ kind: 'single', alert: firing }, signal());
    sink!.script({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"ok":true,"channel":"C0ALERTS","ts":"1.000200"}',
    });
    sink!.script(SLACK_API.error('message_not_found'));

    await n.send({ kind: 'single', alert: resolved }, signal());

    expect(sink!.requests.map((r) => r.path)).toEqual([
      '/api/chat.postMessage',
      '/api/chat.postMessage',
      '/api/chat.update',
    ]);
  });

  it.each([
    [{ channel: 'C0NOPE999' }, undefined, { retryable: false, reason: 'slack_channel_not_found' }],
    [{ channel: 'C0ARCHIVED' }, undefined, { retryable: false, reason: 'slack_is_archived' }],
    [{ channel: 'C0NOTIN' }, undefined, { retryable: false, reason: 'slack_not_in_channel' }],
    [{ bot_token: 'xoxb-wrong-token-0000' }, undefined, { retryable: false, reason: 'slack_invalid_auth' }],
    [{}, SLACK_API.rateLimited(12), { retryable: true, retryAfterMs: 12_000, reason: 'http_429' }],
    [{}, SLACK_API.error('ratelimited'), { retryable: true, reason: 'http_429' }],
    [{}, SLACK_API.error('internal_error'), { retryable: true, reason: 'slack_internal_error' }],
    [{}, SLACK_API.serverError, { retryable: true, reason: 'http_500' }],
    [{}, { status: 200, reset: true }, { retryable: true, reason: 'network' }],
  ])('classifies %j / %j', async (config, answer, expected) => {
    const n = await notifier(config);
    if (answer) sink!.script(answer);

    const error = await n.send({ kind: 'single', alert: firing }, signal()).catch((e: unknown) => e);

    expect(error).toMatchObject(expected);
  });

  it('says what to do about a configuration error, with only the code of Slack', async () => {
    const n = await notifier({ channel: 'C0NOTIN' });

    const error = (await n
      .send({ kind: 'single', alert: firing }, signal())
      .catch((e: unknown) => e)) as Error;

    expect(error.message).toBe(
      'Slack app of notifier "ops-app": Slack said not_in_channel: the bot is not a member of the channel (invite the app: /invite @app) (permanent)',
    );
  });

  it('refuses a token of the wrong shape without showing it', () => {
    const result = slackApp.config.safeParse({
      kind: 'slack-app',
      bot_token: 'hunter2-token',
      channel: 'C0ALERTS',
    });

    expect(JSON.stringify(result.error?.issues)).toContain('expected a Slack bot token like');
    expect(JSON.stringify(result.error?.issues)).not.toContain('hunter2');
  });
});
