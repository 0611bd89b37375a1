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
