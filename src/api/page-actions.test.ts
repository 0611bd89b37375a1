// The status page's forms over loopback HTTP with the real stores: each needs the token (bearer) or a login
// session together with its CSRF token and an Origin of this server.
import { afterEach, describe, expect, it } from 'vitest';
import { Config } from '../config-file/schema.js';
import { createRuntimeControls } from '../app/runtime-controls.js';
import { HttpConfig } from '../config/sections/http.js';
import { createOutbox } from '../delivery/outbox.js';
import { csrfToken, newSession } from '../observability/http-auth.js';
import { startHttpServer, type RunningHttpServer } from '../observability/http-server.js';
import { createLogger } from '../observability/logger.js';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import { testAlert } from '../../test/helpers/alerts.js';
import { createApiRouter, type ApiDeps } from './api-router.js';
import { httpAuth } from './http-io.js';
import { createLoginRoute } from './login-route.js';
import { createPageActions } from './page-actions.js';
import { knownLabels } from '../delivery/known-labels.js';

const TOKEN = 'page-actions-token';
const servers: RunningHttpServer[] = [];
afterEach(async () => Promise.all(servers.splice(0).map((s) => s.close())));

async function start(http: Record<string, unknown> = { api_token: TOKEN }) {
  const now = Date.parse('2030-01-01T00:00:00Z');
  const store = openStateStore({ dir: ':memory:' });
  const outbox = createOutbox(store, () => now);
  const metrics = createMetrics();
  const config = Config.parse({ ledger: { base_url: 'http://127.0.0.1:1' }, accounts: [{ id: '0.0.1234' }] });
  const controls = createRuntimeControls({ store, metrics, clock: () => now, config });
  const deps: ApiDeps = {
    ...controls,
    http: () => HttpConfig.parse(http),
    knownLabels: () => knownLabels({ rules: [], accounts: [] }),
    readiness: () => ({}),
    reload: async () => true,
    clock: () => now,
    log: createLogger({ level: 'silent' }),
    metrics,
  };
  const routers = [createApiRouter(deps), createLoginRoute(deps), createPageActions(deps)];
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    registry: metrics.registry,
    readiness: () => ({}),
    api: (req, res) => routers.some((r) => r(req, res)),
    auth: () => httpAuth(HttpConfig.parse(http)),
    clock: () => now,
  });
  servers.push(server);
  const session = newSession(TOKEN, now);
  const post = async (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...headers },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, text: await res.text(), location: res.headers.get('location') };
  };
  return {
    post,
    controls,
    outbox,
    session,
    csrf: csrfToken(TOKEN, session),
    cookie: `ls_session=${session}`,
  };
}

const SILENCE = { matchers: 'rule="large-debit"\naccount="0.0.1234"', hours: '4', by: 'alice', comment: 'x' };

describe('the status page forms', () => {
  it('create a silence with a session, its CSRF token and this origin, and answer with the page', async () => {
    const { post, controls, csrf, cookie } = await start();

    const res = await post('/actions/silence', { ...SILENCE, csrf }, { cookie });

    expect(res).toMatchObject({ status: 303, location: '/?done=silenced#alerts' });
    const [silence] = controls.silences.list();
    expect(silence?.matchers.map((m) => `${m.name}${m.op}${m.value}`)).toEqual([
      'rule=large-debit',
      'account=0.0.1234',
    ]);
    expect(silence?.endsAt).toBe(Date.parse('2030-01-01T04:00:00Z'));
  });

  it.each([
    ['no session', {}, {}, 401, /log in at \/login/],
    ['a forged CSRF token', { csrf: 'forged' }, { cookie: true }, 403, /CSRF/],
    ['another origin', { csrf: true }, { cookie: true, origin: 'http://evil.example' }, 403, /CSRF/],
    ['no origin at all', { csrf: true }, { cookie: true, origin: '' }, 403, /CSRF/],
  ] as const)('refuse %s', async (_name, fields, headers, status, message) => {
    const { post, controls, csrf, cookie } = await start();
    const extra: Record<string, string> = {
      ...('cookie' in headers ? { cookie } : {}),
      ...('origin' in headers ? { origin: headers.origin } : {}),
    };
    const form = {
      ...SILENCE,
      ...('csrf' in fields ? { csrf: fields.csrf === true ? csrf : fields.csrf } : {}),
    };

    const res = await post('/actions/silence', form, extra);

    expect(res.status).toBe(status);
    expect(res.text).toMatch(message);
    expect(controls.silences.list()).toEqual([]);
  });

  it('are disabled without a configured token, and take the bearer token instead of a session', async () => {
    const off = await start({});
    expect((await off.post('/actions/silence', SILENCE)).status).toBe(403);

    const on = await start();
    const res = await on.post('/actions/silence', SILENCE, { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(303);
  });

  it('say what is wrong with a form, field by field', async () => {
    const { post, csrf, cookie } = await start();
    expect((await post('/actions/silence', { ...SILENCE, hours: '1000', csrf }, { cookie })).text).toMatch(
      /hours/,
    );
    expect((await post('/actions/silence', { ...SILENCE, by: '', csrf }, { cookie })).text).toMatch(
      /^invalid silence: by:/,
    );
    expect(
      (await post('/actions/silence', { ...SILENCE, matchers: 'rule=~".*"', csrf }, { cookie })).status,
    ).toBe(400);
    expect((await post('/actions/ack', { id: 'nope', by: 'bob', csrf }, { cookie })).status).toBe(404);
  });

  it('ack a firing alert', async () => {
    const { post, outbox, controls, csrf, cookie } = await start();
    outbox.enqueue(testAlert({ resolves: true }), ['ops']);
    const [alert] = controls.alerts.list();

    const res = await post(
      '/actions/ack',
      { id: alert?.id ?? '', by: 'bob', comment: 'on it', csrf },
      { cookie },
    );

    expect(res).toMatchObject({ status: 303, location: '/?done=acked#alerts' });
    expect(controls.alerts.list()[0]?.acknowledgedBy).toMatchObject({ by: 'bob', comment: 'on it' });
  });
});
