// Reload: on SIGHUP and on changes to the config or rule files (the folder is watched). An invalid new config
// is rejected with every error logged, the old one keeps running, and the reload metric says so.
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import { startCli } from './cli-harness.js';
import {
  LARGE_DEBIT_RULE,
  httpUrlOf,
  metricValue,
  startDaemonEnv,
  until,
  type DaemonEnv,
} from './daemon-harness.js';

const HBAR = 100_000_000n;
const RELOAD_OK = 'ledger_sentinel_config_last_reload_successful';

describe('reload', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => env.close());

  it('rejects an invalid config file change, logs every error, keeps alerting, and sets the metric to 0', async () => {
    env.writeConfig();
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);

    env.writeConfig('log: { level: loud }\ndaemon: { shutdown_gracee: 1s }');
    await daemon.waitFor((out) => (out.match(/config reload rejected/g) ?? []).length >= 2);
    const metric = await metricValue(url, RELOAD_OK);
    env.ledger.ledger.inject(largeDebit('0.0.1003', 3_000n * HBAR, '0.0.1001'));
    await env.slack.waitForRequests(1);
    daemon.abort();
    await daemon.done;

    expect(metric).toBe(0);
    expect(daemon.stdout()).toMatch(/"issue":"[^"]*config\.yaml:\d+:\d+ log\.level: /);
    expect(daemon.stdout()).toMatch(
      /"issue":"[^"]*config\.yaml:\d+:\d+ daemon\.shutdown_gracee: unknown key/,
    );
  });

  it('applies a changed rule file on SIGHUP', async () => {
    env.writeConfig('daemon: { watch_files: false }');
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    env.writeRule(
      'large-debit.yaml',
      LARGE_DEBIT_RULE.replace("'1000 hbar'", "'100000 hbar'").replace(
        'HBAR debited',
        'HBAR debited (raised threshold)',
      ),
    );

    daemon.hangup();
    await daemon.waitFor((out) => out.includes('"msg":"config reloaded"'));
    env.ledger.ledger.inject(largeDebit('0.0.1003', 3_000n * HBAR, '0.0.1001'));
    env.ledger.ledger.inject(largeDebit('0.0.1004', 200_000n * HBAR, '0.0.1001'));
    const [request] = await env.slack.waitForRequests(1);
    daemon.abort();
    await daemon.done;

    expect(request?.body).toContain('ops-wallet: 200');
    expect(request?.body).toContain('raised threshold');
    expect(env.slack.requests).toHaveLength(1);
  });

  it('reloads when the config file changes, and the metric returns to 1', async () => {
    env.writeConfig();
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    env.writeConfig('log: { level: loud }');
    await daemon.waitFor((out) => out.includes('config reload rejected'));
    const before = await metricValue(url, RELOAD_OK);

    env.writeConfig('log: { level: info }');
    await daemon.waitFor((out) => out.includes('"msg":"config reloaded"'));
    const after = await metricValue(url, RELOAD_OK);
    daemon.abort();
    const code = await daemon.done;

    expect(before).toBe(0);
    expect(after).toBe(1);
    expect(code).toBe(0);
  });

  it('reloads when a Kubernetes ConfigMap update swaps the ..data symlink', async () => {
    // The kubelet's layout: config.yaml -> ..data/config.yaml, ..data -> ..<timestamp>/ (swapped atomically).
    env.writeConfig();
    const mount = join(env.dir, 'mount');
    const version = (name: string, text: string) => {
      mkdirSync(join(mount, name), { recursive: true });
      writeFileSync(join(mount, name, 'config.yaml'), text);
    };
    const config = readFileSync(env.configPath, 'utf8').replace(
      'rules/*.yaml',
      join(env.dir, 'rules', '*.yaml'),
    );
    version('..v1', config);
    // Written before the start: the only change while running is the symlink swap.
    const third = '- { id: 0.0.1004, name: ops-wallet }\n  - { id: 0.0.1005, name: payroll }';
    version('..v2', config.replace('- { id: 0.0.1004, name: ops-wallet }', third));
    symlinkSync('..v1', join(mount, '..data'));
    symlinkSync('..data/config.yaml', join(mount, 'config.yaml'));
    const daemon = startCli(['run', '--config', join(mount, 'config.yaml')]);
    await httpUrlOf(daemon);

    symlinkSync('..v2', join(mount, '..data_tmp'));
    renameSync(join(mount, '..data_tmp'), join(mount, '..data'));
    await daemon.waitFor((out) => /"accounts":3,[^\n]*"msg":"config reloaded"/.test(out));
    daemon.abort();
    const code = await daemon.done;

    expect(code).toBe(0);
  });
});
