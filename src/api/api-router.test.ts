import { afterEach, describe, expect, it } from 'vitest';
import { HttpConfig } from '../config/sections/http.js';
import { createRuntimeControls } from '../app/runtime-controls.js';
import { Config } from '../config-file/schema.js';
import { createOutbox } from '../delivery/outbox.js';
import { knownLabels } from '../delivery/known-labels.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { startHttpServer, type RunningHttpServer } from '../observability/http-server.js';
import { createLogger } from '../observability/logger.js';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import { createApiRouter } from './api-router.js';
import { MAX_BODY_BYTES } from './http-io.js';

const TOKEN = 's3cret-token-value';
const servers: RunningHttpServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.close())));

async function start(http: Record<string, unknown> = { api_token: TOKEN }) {
  const now = Date.parse('2030-01-01T00:00:00Z');
  const store = openStateStore({ dir: ':memory:' });
  const outbox = createOutbox(store, () => now);
  const metrics = createMetrics();
  const config = Config.parse({
    ledger: { base_url: 'http://127.0.0.1:1' },
    accounts: [{ id: '0.0.1234' }],
    silences: [{ rule: 'noisy', ends_at: '2030-01-02T00:00:00Z', comment: 'from the file' }],
  });
  const controls = createRuntimeControls({ store, metrics, clock: () => now, config });
  const reloads: string[] = [];
  const api = createApiRouter({
    ...controls,
    http: () => HttpConfig.parse(http),
    knownLabels: () =>
      knownLabels({ rules: [{ labels: { team: 'ops' }, group_by: ['account'] }], accounts: [] }),
    readiness: () => ({ state: { ok: true, message: 'ok' } }),
    reload: async () => (reloads.push('reload'), true),
    clock: () => now,
    log: createLogger({ level: 'silent' }),
    metrics,
  });
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    registry: metrics.registry,
    readiness: () => ({}),
    api,
  });
  servers.push(server);
  const call = async (method: string, path: string, body?: string, token: string | null = TOKEN) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };
  return { call, outbox, store, reloads, now };
}

const silence = (matchers: unknown[]) =>
  JSON.stringify({ matchers, endsAt: '2030-01-01T02:00:00Z', createdBy: 'ops', comment: 'maintenance' });

describe('the API router', () => {
  it('creates, lists and expires silences, config-file ones listed read-only', async () => {
    const t = await start();

    const created = await t.call(
      'POST',
      '/api/v1/silences',
      silence([{ name: 'rule', value: 'large-.*', isRegex: true }]),
    );
    const id = (JSON.parse(created.text) as { silenceID: string }).silenceID;
    const listed = JSON.parse((await t.call('GET', '/api/v1/silences', undefined, null)).text) as {
      id: string;
      readOnly: boolean;
      status: { state: string };
    }[];
    const expired = await t.call('DELETE', `/api/v1/silences/${id}`);
    const configDelete = await t.call('DELETE', '/api/v1/silences/config:0');
    const unknown = await t.call('DELETE', '/api/v1/silences/nope');
    const after = JSON.parse((await t.call('GET', `/api/v1/silences/${id}`)).text) as {
      status: { state: string };
    };

    expect(created.status).toBe(200);
    expect(listed.map((s) => [s.id, s.readOnly, s.status.state])).toEqual([
      ['config:0', true, 'active'],
      [id, false, 'active'],
    ]);
    expect([expired.status, configDelete.status, unknown.status]).toEqual([200, 409, 404]);
    expect(after.status.state).toBe('expired');
  });

  it('wants the bearer token for every state-changing endpoint', async () => {
    const t = await start();

    const answers = await Promise.all([
      t.call('POST', '/api/v1/silences', silence(['rule="x"']), null),
      t.call('POST', '/api/v1/silences', silence(['rule="x"']), `${TOKEN}x`),
      t.call('POST', '/api/v1/silences', silence(['rule="x"']), TOKEN.slice(0, -1)),
      t.call('DELETE', '/api/v1/silences/any', undefined, 'wrong'),
      t.call('POST', '/api/v1/alerts/abc/ack', '{"by":"a"}', null),
      t.call('POST', '/-/reload', undefined, null),
    ]);

    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(answers[0]?.headers.get('www-authenticate')).toBe('Bearer');
    expect(answers.every((a) => !a.text.includes(TOKEN))).toBe(true);
    expect(t.reloads).toEqual([]);
  });

  it('disables the state-changing endpoints without a token, and protects reads on request', async () => {
    const open = await start({});
    const guarded = await start({ api_token: TOKEN, api_read_auth: true });

    const disabled = await open.call('POST', '/api/v1/silences', silence(['rule="x"']));
    const reads = [
      await guarded.call('GET', '/api/v1/alerts', undefined, null),
      await guarded.call('GET', '/api/v1/alerts'),
      await guarded.call('GET', '/-/healthy', undefined, null),
    ];

    expect(disabled.status).toBe(403);
    expect(disabled.text).toContain('api_token_file');
    expect(reads.map((r) => r.status)).toEqual([401, 200, 200]);
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['a missing field', JSON.stringify({ matchers: ['rule="x"'], createdBy: 'a' }), /endsAt/],
    [
      'an unknown field',
      JSON.stringify({ matchers: ['rule="x"'], endsAt: '2030-01-01T02:00:00Z', createdBy: 'a', x: 1 }),
      /x/,
    ],
    ['a bad regex', silence(['rule=~"(x"']), /invalid regular expression/],
    ['a silence of everything', silence(['rule=~".*"']), /must not match the empty string/],
    [
      'a label no alert carries',
      silence(['tema="ops"']),
      /no alert carries the label "tema"; did you mean "team"/,
    ],
    [
      'an end in the past',
      silence(['rule="x"']).replace('2030-01-01T02', '2029-01-01T02'),
      /endsAt must be after/,
    ],
  ])('answers 400 to %s, naming the problem', async (_name, body, message) => {
    const t = await start();

    const answer = await t.call('POST', '/api/v1/silences', body);

    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.text) as { error: string }).error).toMatch(message);
  });

  it.each(['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'])(
    'refuses a silence on %s (a name of Object.prototype, no label) and silences nothing',
    async (name) => {
      const t = await start();

      const answers = await Promise.all([
        t.call('POST', '/api/v1/silences', silence([`${name}=~".+"`])),
        t.call('POST', '/api/v1/silences', silence([{ name, value: 'x', isRegex: false }])),
      ]);
      const listed = JSON.parse((await t.call('GET', '/api/v1/silences')).text) as unknown[];

      expect(answers.map((a) => a.status)).toEqual([400, 400]);
      for (const a of answers)
        expect((JSON.parse(a.text) as { error: string }).error).toMatch(
          name === '__proto__'
            ? /invalid matcher name "__proto__"/
            : /no alert carries the label .*the labels are: account, alertname, category, rule, severity, team/,
        );
      expect(listed).toHaveLength(1); // the config file's silence only
    },
  );

  it('refuses a body over the size limit with 413', async () => {
    const t = await start();

    const answer = await t.call('POST', '/api/v1/silences', 'x'.repeat(MAX_BODY_BYTES + 1));

    expect(answer.status).toBe(413);
  });

  it('lists alerts with their filters and acks one', async () => {
    const t = await start();
    t.store.transaction(() => {
      t.outbox.enqueue(testAlert({ resolves: true }), ['ops']);
      t.outbox.enqueue(testAlert({ key: 'other', id: 'other|firing', ruleId: 'other', severity: 'info' }), [
        'ops',
      ]);
    });

    const all = JSON.parse((await t.call('GET', '/api/v1/alerts')).text) as { id: string; rule: string }[];
    const critical = JSON.parse((await t.call('GET', '/api/v1/alerts?severity=critical')).text) as {
      rule: string;
    }[];
    const badFilter = await t.call('GET', '/api/v1/alerts?severity=loud');
    const id = all.find((a) => a.rule === 'large-debit')?.id ?? '';
    const acked = await t.call(
      'POST',
      `/api/v1/alerts/${id}/ack`,
      JSON.stringify({ by: 'alice', comment: 'on it' }),
    );
    const missing = await t.call('POST', '/api/v1/alerts/0000/ack', JSON.stringify({ by: 'alice' }));

    expect(all.map((a) => a.rule).sort()).toEqual(['large-debit', 'other']);
    expect(critical.map((a) => a.rule)).toEqual(['large-debit']);
    expect(badFilter.status).toBe(400);
    expect(acked.status).toBe(200);
    expect(JSON.parse(acked.text)).toMatchObject({ acknowledgedBy: { by: 'alice', comment: 'on it' } });
    expect(missing.status).toBe(404);
  });

  it('answers the Prometheus lifecycle endpoints, 404 and 405', async () => {
    const t = await start();

    const answers = await Promise.all([
      t.call('GET', '/-/healthy'),
      t.call('GET', '/-/ready'),
      t.call('POST', '/-/reload'),
      t.call('GET', '/api/v1/nothing'),
      t.call('PUT', '/api/v1/silences'),
      t.call('GET', '/api/v1/silences/%E0%A4%A'),
    ]);

    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404, 405, 400]);
    expect(t.reloads).toEqual(['reload']);
  });
});
