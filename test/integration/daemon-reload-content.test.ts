// Reload decided by content (docs/operations.md, "Reload"): events of unrelated files in the config folder
// reload nothing, a Kubernetes `..data` swap to identical content is a no-op, and a swap that changes one rule
// file swaps the rules and nothing else.
import { appendFileSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
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
const APPLIED = 'ledger_sentinel_config_reloads_total{outcome="applied"}';
const UNRELATED = 'ledger_sentinel_config_reload_noops_total{reason="unrelated_file"}';
const SAME = 'ledger_sentinel_config_reload_noops_total{reason="same_content"}';

function reloadLines(out: string): { changed: string[] }[] {
  return out
    .split('\n')
    .filter((l) => l.includes('"msg":"config reloaded"'))
    .map((l) => JSON.parse(l) as { changed: string[] });
}

describe('reload decided by content', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => env.close());

  it('does not reload while a log file grows in the config folder, and still reloads on a rule change', async () => {
    env.writeConfig();
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    const log = join(env.dir, 'daemon.log');

    for (let i = 0; i < 20; i++) appendFileSync(log, `{"line":${i}}\n`);
    await until(async () => ((await metricValue(url, UNRELATED)) ?? 0) >= 1);
    const appliedAfterLog = await metricValue(url, APPLIED);
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE.replace('throttle: 1s', 'throttle: 2s'));
    await daemon.waitFor((out) => out.includes('"msg":"config reloaded"'));
    appendFileSync(log, '{"line":"last"}\n');
    await until(async () => ((await metricValue(url, UNRELATED)) ?? 0) >= 2);
    const reloads = reloadLines(daemon.stdout());
    daemon.abort();
    await daemon.done;

    expect(appliedAfterLog).toBe(0);
    expect(reloads).toHaveLength(1);
    expect(reloads[0]?.changed).toEqual(['rules']);
  });

  it('treats a ConfigMap ..data swap to identical content as a no-op, and one changing a rule as a rules-only reload', async () => {
    // The kubelet's layout: name -> ..data/name, ..data -> ..<version>/ (swapped atomically).
    env.writeConfig();
    const mount = join(env.dir, 'mount');
    const config = readFileSync(env.configPath, 'utf8').replace('rules/*.yaml', 'large-debit.yaml');
    const version = (name: string, rule: string) => {
      mkdirSync(join(mount, name), { recursive: true });
      writeFileSync(join(mount, name, 'config.yaml'), config);
      writeFileSync(join(mount, name, 'large-debit.yaml'), rule);
    };
    const swapTo = (name: string) => {
      symlinkSync(name, join(mount, '..data_tmp'));
      renameSync(join(mount, '..data_tmp'), join(mount, '..data'));
    };
    version('..v1', LARGE_DEBIT_RULE);
    version('..v2', LARGE_DEBIT_RULE);
    version('..v3', LARGE_DEBIT_RULE.replace('throttle: 1s', 'throttle: 5s'));
    symlinkSync('..v1', join(mount, '..data'));
    for (const file of ['config.yaml', 'large-debit.yaml'])
      symlinkSync(join('..data', file), join(mount, file));
    const daemon = startCli(['run', '--config', join(mount, 'config.yaml')]);
    const url = await httpUrlOf(daemon);

    swapTo('..v2');
    await until(async () => ((await metricValue(url, SAME)) ?? 0) >= 1);
    const appliedAfterSame = await metricValue(url, APPLIED);
    swapTo('..v3');
    await daemon.waitFor((out) => out.includes('"msg":"config reloaded"'));
    const applied = await metricValue(url, APPLIED);
    const reloads = reloadLines(daemon.stdout());
    daemon.abort();
    const code = await daemon.done;

    expect(appliedAfterSame).toBe(0);
    expect(applied).toBe(1);
    expect(reloads.map((r) => r.changed)).toEqual([['rules']]);
    expect(code).toBe(0);
  });

  it('reloads the notifiers when a secret file in another folder changes, and not when it is rewritten unchanged', async () => {
    env.writeConfig();
    const secret = join(env.dir, 'secrets', 'slack-url');
    mkdirSync(join(env.dir, 'secrets'));
    writeFileSync(secret, `${env.slack.webhookUrl}\n`);
    const config = readFileSync(env.configPath, 'utf8');
    writeFileSync(
      env.configPath,
      config.replace(`webhook_url: ${env.slack.webhookUrl}`, `webhook_url_file: ${secret}`),
    );
    const daemon = env.run();
    const url = await httpUrlOf(daemon);
    const rotated = env.slack.webhookUrl.replace(/[^/]+$/, 'rotated-token');

    writeFileSync(secret, `${env.slack.webhookUrl}\n`);
    await until(async () => ((await metricValue(url, SAME)) ?? 0) >= 1);
    writeFileSync(secret, `${rotated}\n`);
    await daemon.waitFor((out) => out.includes('"msg":"config reloaded"'));
    env.ledger.ledger.inject(largeDebit('0.0.1003', 3_000n * HBAR, '0.0.1001'));
    const [request] = await env.slack.waitForRequests(1);
    const reloads = reloadLines(daemon.stdout());
    daemon.abort();
    await daemon.done;

    expect(reloads.map((r) => r.changed)).toEqual([['notifiers', 'self_monitoring']]);
    expect(request?.path).toMatch(/\/rotated-token$/);
  });
});
