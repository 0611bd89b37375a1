// The real daemon process under libfaketime (Debian package `faketime`), its wall clock stepped while it runs
// through FAKETIME_TIMESTAMP_FILE — back an hour and forward again, then an hour ahead and back — while the
// monotonic clock is left alone, as on a real host. The tail never stops: every marker made during a step is
// alerted; each step is logged, counted and raised as `sentinel-clock-step`; and while the clock runs an hour
// ahead, a 10-minute throttle still holds back every match after the first (docs/tailing.md, "Clock steps").
// With CI=true a missing libfaketime fails the test (.ci/apt-packages installs it); elsewhere it is skipped.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { largeDebit } from '@ledger-sentinel/simulator/traffic-inject';
import {
  metricSum,
  metricsText,
  spawnSentinel,
  type SentinelProcess,
} from '../../bench/lib/daemon-process.js';
import { LIBFAKETIME } from '../helpers/faults/fake-clock.js';
import { startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const REQUIRED = process.env.CI === 'true';

const HBAR = 100_000_000n;
const RULES = `rules:
  - id: marker
    when: { all: [{ debit: '1000 hbar' }, { memo: { contains: 'ftest-m' } }] }
    summary: 'marker {{memo}}'
    description: 'marker memo={{memo}}'
    notify: [ops-slack]
    throttle: 0s
  - id: throttled
    when: { all: [{ debit: '1000 hbar' }, { memo: { contains: 'ftest-t' } }] }
    summary: 'throttled {{memo}}'
    description: 'throttled memo={{memo}}'
    notify: [ops-slack]
    throttle: 10m
`;

describe.skipIf(!LIBFAKETIME && !REQUIRED)('a wall-clock step under libfaketime', () => {
  let env: DaemonEnv;
  let daemon: SentinelProcess | undefined;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('rules.yaml', RULES);
    // A rule tick every 200 ms: before, each tick an hour ahead forgot the throttle.
    env.writeConfig(
      'self_monitoring: { notify: [ops-slack], check_interval: 200ms }\ndaemon: { tick_interval: 200ms }',
    );
  });
  afterEach(async () => {
    daemon?.kill('SIGKILL');
    await daemon?.exited;
    await env.close();
  });

  const bodies = () => env.slack.requests.map((r) => r.body);
  async function slackSays(text: string): Promise<void> {
    while (!bodies().some((b) => b.includes(text)))
      await env.slack.waitForRequests(env.slack.requests.length + 1);
  }
  let serial = 0;
  async function marker(): Promise<void> {
    const memo = `ftest-m${(serial += 1)}`;
    env.ledger.ledger.inject({
      ...largeDebit('0.0.1004', 2_000n * HBAR, '0.0.1001'),
      memo,
      result: 'SUCCESS',
    });
    await slackSays(`memo=${memo}`);
  }

  it('never stops the tail, is reported, and changes no throttle', async () => {
    expect(LIBFAKETIME, 'libfaketime is missing: apt-get install faketime (.ci/apt-packages)').toBeDefined();
    const offset = join(env.dir, 'faketime');
    writeFileSync(offset, '+0\n');
    daemon = spawnSentinel(['run', '--config', env.configPath], {
      env: {
        LD_PRELOAD: LIBFAKETIME ?? '',
        FAKETIME_TIMESTAMP_FILE: offset,
        FAKETIME_NO_CACHE: '1',
        // A real host steps only the wall clock: CLOCK_MONOTONIC never jumps.
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
      },
    });
    const url = await daemon.httpUrl(30_000);
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    const out = () => daemon?.stdout() ?? '';
    await marker();

    writeFileSync(offset, '-1h\n');
    await until(async () => out().includes('wall clock jumped backward'));
    await marker();
    await marker();
    writeFileSync(offset, '+0\n');
    await until(async () => out().includes('wall clock jumped forward'));
    await marker();

    writeFileSync(offset, '+1h\n');
    await until(async () => out().split('wall clock jumped forward').length > 2);
    for (let i = 0; i < 4; i++) {
      const memo = `ftest-t${i}`;
      env.ledger.ledger.inject({
        ...largeDebit('0.0.1003', 2_000n * HBAR, '0.0.1001'),
        memo,
        result: 'SUCCESS',
      });
      await marker(); // the marker after each throttled match: that match has been evaluated by then
    }
    writeFileSync(offset, '+0\n');
    await until(async () => out().split('wall clock jumped backward').length > 2);
    await marker();
    await slackSays('wall clock jumped');
    const metrics = await metricsText(url);
    const ready = (await fetch(`${url}/readyz`)).status;

    expect(bodies().filter((b) => b.includes('throttled memo=')).length).toBe(1);
    expect(metricSum(metrics, 'ledger_sentinel_clock_steps_total')).toBeGreaterThanOrEqual(4);
    expect(ready).toBe(200);
  }, 120_000);
});
