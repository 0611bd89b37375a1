import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { captureCli } from '../../../test/helpers/capture-cli.js';
import { startPagerdutyServer, type PagerdutyServer } from '../../../test/helpers/pagerduty-server.js';
import { startOpsgenieServer, type OpsgenieServer } from '../../../test/helpers/opsgenie-server.js';
import { notify } from './notify.js';

const ROUTING_KEY = 'notify-test-routing-key-01234567';
const API_KEY = 'notify-test-opsgenie-key';

describe('notify test', () => {
  let dir: string;
  let pd: PagerdutyServer;
  let og: OpsgenieServer;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-notify-'));
    pd = await startPagerdutyServer({ routingKeys: [ROUTING_KEY] });
    og = await startOpsgenieServer({ apiKeys: [API_KEY] });
    writeFileSync(join(dir, 'pd-key'), `${ROUTING_KEY}\n`);
    writeFileSync(
      join(dir, 'config.yaml'),
      `ledger: { base_url: http://127.0.0.1:5551 }
accounts:
  - { id: 0.0.1003, name: treasury-hot }
rules: { paths: [rules/*.yaml] }
notifiers:
  pager: { kind: pagerduty, routing_key_file: pd-key, url: ${pd.url} }
  genie: { kind: opsgenie, api_key: "\${OPSGENIE_KEY}", api_url: ${og.url} }
`,
    );
  });
  afterEach(async () => {
    await pd.close();
    await og.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (argv: string[], env: Record<string, string> = { OPSGENIE_KEY: API_KEY }) => {
    const cli = captureCli(['--config', 'config.yaml', ...argv], env, dir);
    const code = await notify.run(cli.ctx);
    return { code, out: cli.out(), err: cli.err() };
  };

  it('triggers and resolves a marked test incident in PagerDuty and prints what PagerDuty answered', async () => {
    const { code, out } = await run(['test', 'pager']);

    expect(code).toBe(0);
    expect(out).toMatch(
      /^sent test alert to notifier "pager" \(pagerduty\): accepted \(HTTP 202\): .*Event processed/m,
    );
    expect(out).toMatch(/^sent its resolve to notifier "pager" \(pagerduty\): accepted \(HTTP 202\)/m);
    expect(pd.alerts).toEqual([expect.objectContaining({ status: 'resolved', severity: 'info' })]);
    expect(pd.alerts[0]?.summary).toContain('TEST from ledger-sentinel');
    expect(out).not.toContain(ROUTING_KEY);
  });

  it('creates and closes a test alert in Opsgenie with the key from the environment', async () => {
    const { code } = await run(['test', 'genie', '--severity', 'critical']);

    expect(code).toBe(0);
    expect(og.alerts).toEqual([expect.objectContaining({ status: 'closed', priority: 'P1' })]);
  });

  it('--firing-only leaves the test alert open', async () => {
    const { code, err } = await run(['test', 'pager', '--firing-only']);

    expect(err).toBe('');
    expect(code).toBe(0);
    expect(pd.alerts).toEqual([expect.objectContaining({ status: 'triggered' })]);
  });

  it('exits 1 with the reason, and never the key, when the receiver refuses the credentials', async () => {
    const { code, out } = await run(['test', 'genie'], { OPSGENIE_KEY: 'wrong-key-123456' });

    expect(code).toBe(1);
    expect(out).toContain('FAILED test alert to notifier "genie" (opsgenie)');
    expect(out).toContain('answered HTTP 401');
    expect(out).toContain('Could not authenticate');
    expect(out).toContain('permanent');
    expect(out).not.toContain('wrong-key-123456');
    expect(og.alerts).toEqual([]);
  });

  it('exits 1 and says the daemon would retry when the receiver is down', async () => {
    pd.script({ status: 503 });

    const { code, out } = await run(['test', 'pager']);

    expect(code).toBe(1);
    expect(out).toContain('answered HTTP 503');
    expect(out).toContain('retryable: the daemon would retry it');
  });

  it.each([
    [['test', 'nobody'], 'no notifier "nobody"', 'configured: genie, pager'],
    [['test'], 'name exactly one notifier', ''],
    [['ping', 'pager'], 'unknown action "ping"', ''],
    [['test', 'pager', '--severity', 'huge'], '--severity must be one of', ''],
  ])('exits 2 on %j', async (argv, message, more) => {
    const { code, err } = await run(argv);

    expect(code).toBe(2);
    expect(err).toContain(message);
    expect(err).toContain(more);
    expect(pd.sink.requests).toEqual([]);
  });
});
