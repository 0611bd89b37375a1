// Usage errors and --help of the API subcommands (silence, alerts, ack); their calls to a running daemon are
// covered against the real daemon in test/integration/daemon-api.test.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { captureCli } from '../../../test/helpers/capture-cli.js';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';

async function run(argv: string[], env: Record<string, string> = { USER: 'tester' }) {
  const c = captureCli(argv, env);
  const code = await runCli(c.ctx);
  return { code, out: c.out(), err: c.err() };
}

describe('the API subcommands', () => {
  it.each([
    [['silence', 'add', '--url', 'http://127.0.0.1:1'], /give at least one matcher/],
    [['silence', 'add', 'rule', '--url', 'http://127.0.0.1:1'], /expected name="value"/],
    [['silence', 'add', 'rule="x"', '--duration', 'soon', '--url', 'http://127.0.0.1:1'], /--duration/],
    [['silence', 'frob'], /expected add, ls or expire/],
    [['silence', 'expire'], /name the silence id/],
    [['silence', 'ls', '--url', 'localhost:9464'], /--url: expected http/],
    [['ack'], /expected one alert id/],
    [['ack', 'a', '--expires', 'later', '--url', 'http://127.0.0.1:1'], /--expires/],
    [['alerts', '--rule'], /argument missing|requires|expects/i],
    [
      ['silence', 'ls', '--token-file', ''],
      /^ledger-sentinel silence: --token-file is empty: give the path/m,
    ],
    [['silence', 'ls', '--token-file', '.'], /the token file \. is a directory: give the path/],
  ])('%j is a usage error (exit 2) naming the problem', async (argv, message) => {
    const result = await run(argv);

    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it.each(['silence', 'alerts', 'ack'])('%s --help prints its usage and exits 0', async (name) => {
    const result = await run([name, '--help']);

    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Usage: ledger-sentinel /);
    expect(result.out).toContain('--token-file');
  });

  it('says that LEDGER_SENTINEL_API_TOKEN_FILE is empty instead of reading the working folder', async () => {
    const result = await run(['silence', 'ls'], { LEDGER_SENTINEL_API_TOKEN_FILE: '' });

    expect(result.code).toBe(2);
    expect(result.err).toContain('LEDGER_SENTINEL_API_TOKEN_FILE is empty');
    expect(result.err).not.toContain('EISDIR');
  });

  it.each([
    [{ USER: 'alice' }, 'alice'],
    [{ LOGNAME: 'bob' }, 'bob'],
    [{ USER: '', LOGNAME: 'carol' }, 'carol'],
  ])('silence add defaults the author to the user (%j), as amtool does', async (env, author) => {
    const api = await fakeApi();

    const result = await run(['silence', 'add', 'rule="x"', '--url', api.url], env);
    await api.close();

    expect(result.code).toBe(0);
    expect(api.bodies[0]).toMatchObject({ matchers: ['rule="x"'], createdBy: author });
  });

  it('silence add without --author, USER or LOGNAME is a usage error saying so', async () => {
    const result = await run(['silence', 'add', 'rule="x"', '--url', 'http://127.0.0.1:1'], {});

    expect(result.code).toBe(2);
    expect(result.err).toContain('--author (USER and LOGNAME are not set)');
  });

  it('silence expire prints each silence it expired, with its matchers and author', async () => {
    const api = await fakeApi();

    const result = await run(['silence', 'expire', 's-1', '--url', api.url]);
    await api.close();

    expect(result.code).toBe(0);
    expect(result.out).toBe('expired s-1: rule="large-debit" account="treasury-hot" (by alice: deploy)\n');
    expect(api.requests).toEqual(['GET /api/v1/silences/s-1', 'DELETE /api/v1/silences/s-1']);
  });

  it('exits 1 with the daemon reason when the daemon refuses, 3 when it cannot be reached', async () => {
    const server = createServer((_req, res) =>
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"error":"missing or wrong bearer token"}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const refused = await run(['silence', 'add', 'rule="x"', '--url', url]);
    server.close();
    const unreachable = await run(['alerts', '--url', url]);

    expect(refused.code).toBe(1);
    expect(refused.err).toContain('the daemon answered 401: missing or wrong bearer token');
    expect(unreachable.code).toBe(3);
    expect(unreachable.err).toContain(`cannot reach the daemon at ${url}`);
  });
});

/** A daemon API on 127.0.0.1 that accepts a silence and knows one, s-1; records requests and bodies. */
async function fakeApi() {
  const requests: string[] = [];
  const bodies: unknown[] = [];
  const silence = {
    id: 's-1',
    matchers: [
      { name: 'rule', value: 'large-debit', isRegex: false, isEqual: true },
      { name: 'account', value: 'treasury-hot', isRegex: false, isEqual: true },
    ],
    startsAt: '2026-11-28T06:00:00.000Z',
    endsAt: '2026-11-28T08:00:00.000Z',
    createdBy: 'alice',
    comment: 'deploy',
    status: { state: 'active' },
  };
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => {
      if (text) bodies.push(JSON.parse(text));
      const body =
        req.method === 'POST' ? { silenceID: 's-2' } : req.method === 'DELETE' ? { expired: 's-1' } : silence;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
