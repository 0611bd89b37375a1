// One read-auth decision for every view of the data (docs/api.md, "Security"): with `http.api_read_auth` the
// running daemon refuses every route it serves — the status page and its pages, /quarantine, every read and
// write of the JSON API, the page's forms, and a path nobody registered — without the token or a session, while
// /healthz, /readyz, /metrics and the probes stay open. The routes are enumerated from what the daemon itself
// says it serves (its 404 lists them) and from the API's route table, so a route added later is covered here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiRouteTable, type ApiDeps } from '../../src/api/api-router.js';
import { OPEN_PATHS } from '../../src/observability/http-auth.js';
import { LARGE_DEBIT_RULE, httpUrlOf, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const TOKEN = 'read-auth-token-9d2e';

/** A concrete path for a route pattern: each captured segment becomes `x`. */
function example(pattern: RegExp): string {
  return pattern.source
    .replace(/^\^|\$$/g, '')
    .replace(/\([^)]*\)/g, 'x')
    .replace(/\\\//g, '/');
}

describe('read auth on every route of the running daemon', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    const tokenFile = join(env.dir, 'api-token');
    writeFileSync(tokenFile, `${TOKEN}\n`);
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
    env.writeConfig('', { http: `api_token_file: ${tokenFile}, api_read_auth: true` });
  });
  afterEach(async () => env.close());

  it('refuses every data route without a token, keeps the probes open, and lets a logged-in browser in', async () => {
    const run = env.run();
    const url = await httpUrlOf(run);
    await until(async () => (await fetch(`${url}/-/ready`)).status === 200);
    const bearer = { authorization: `Bearer ${TOKEN}` };
    // What the daemon serves, by its own account (behind the gate: asked with the token).
    const notFound = await (await fetch(`${url}/no-such-path`, { headers: bearer })).text();
    const served = (/try (.*)$/m.exec(notFound)?.[1] ?? '').split(', ');
    expect(served).toEqual(expect.arrayContaining(['/', '/metrics', '/healthz', '/readyz', '/quarantine']));
    const api = apiRouteTable({} as ApiDeps).map((r) => ({ method: r.method, path: example(r.path) }));
    const routes = [
      ...served.map((path) => ({ method: 'GET', path })),
      { method: 'GET', path: '/?page=2' },
      { method: 'GET', path: '/?streams_page=2&severity=critical' },
      { method: 'GET', path: '/no-such-path' },
      ...api,
      { method: 'POST', path: '/actions/silence' },
      { method: 'POST', path: '/actions/ack' },
    ];
    const answers: Record<string, number> = {};
    for (const { method, path } of routes) {
      const res = await fetch(`${url}${path}`, { method, ...(method === 'GET' ? {} : { body: '' }) });
      await res.text();
      answers[`${method} ${path}`] = res.status;
    }
    const open = Object.entries(answers).filter(([route]) => OPEN_PATHS.has(route.split(' ')[1] ?? ''));
    const data = Object.entries(answers).filter(([route]) => !OPEN_PATHS.has(route.split(' ')[1] ?? ''));
    expect(data.length).toBeGreaterThan(10);
    expect(data.filter(([, status]) => status !== 401)).toEqual([]);
    expect(open.filter(([, status]) => status === 401)).toEqual([]);
    expect(open.map(([route]) => route)).toEqual(
      expect.arrayContaining([
        'GET /metrics',
        'GET /healthz',
        'GET /readyz',
        'GET /-/healthy',
        'GET /-/ready',
      ]),
    );

    // A browser asking for the page gets the login form; the form's token becomes a session cookie.
    const asked = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    expect(asked.status).toBe(401);
    expect(await asked.text()).toContain('<form method="post" action="/login"');
    const login = (token: string, origin = url) =>
      fetch(`${url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams({ token }).toString(),
      });
    expect((await login('wrong')).status).toBe(401);
    expect((await login(TOKEN, 'http://evil.example')).status).toBe(403);
    const ok = await login(TOKEN);
    expect(ok.status).toBe(303);
    const cookie = ok.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^ls_session=v1\.[^;]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0] ?? '';
    for (const path of ['/', '/?page=2', '/quarantine', '/api/v1/alerts'])
      expect((await fetch(`${url}${path}`, { headers: { cookie: session } })).status, path).toBe(200);
    // A forged or tampered session is no session.
    const forged = session.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await fetch(`${url}/`, { headers: { cookie: forged } })).status).toBe(401);

    run.abort();
    await run.done;
    expect(run.stdout() + run.stderr()).not.toContain(TOKEN);
    expect(run.stdout() + run.stderr()).not.toContain(session.split('=')[1]);
  }, 60_000);
});
