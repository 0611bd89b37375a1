// The whole daemon against the real Alertmanager (apt: prometheus-alertmanager): an absence alert stays active
// in Alertmanager past twice its resolve_timeout and across a daemon restart, with one page, and Alertmanager
// shows it resolved once the daemon resolves it (the missing record arrives).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ALERTMANAGER_TESTS_RUN,
  alertmanagerBinary,
  startAlertmanager,
  type AlertmanagerProcess,
} from '../helpers/alertmanager-process.js';
import { startHttpSink, type HttpSink } from '../helpers/http-sink.js';
import { startDaemonEnv, type DaemonEnv } from './daemon-harness.js';

const RESOLVE_TIMEOUT_S = 3;
const ALERT = 'heartbeat-missing';

const RULE = `rules:
  - id: ${ALERT}
    when: { memo: { contains: heartbeat-7f3a } }
    group_by: [account]
    window: { duration: 2s, absent: true }
    severity: critical
    summary: 'No heartbeat from {{account.name}}'
    notify: [am]
`;

interface AmAlert {
  readonly labels: Record<string, string>;
  readonly startsAt: string;
  readonly status: { readonly state: string };
}

describe.skipIf(!ALERTMANAGER_TESTS_RUN)('the daemon against a real Alertmanager', () => {
  let env: DaemonEnv;
  let am: AlertmanagerProcess;
  let pages: HttpSink;
  beforeEach(async () => {
    env = await startDaemonEnv();
    pages = await startHttpSink();
    am = await startAlertmanager(alertmanagerBinary(), {
      resolveTimeout: `${RESOLVE_TIMEOUT_S}s`,
      webhookUrl: `${pages.origin}/page`,
    });
    env.writeRule('heartbeat.yaml', RULE);
    writeFileSync(
      env.configPath,
      `ledger:
  base_url: ${env.ledger.url}
  retry: { max_attempts: 2, base_delay: 50ms, max_delay: 200ms }
accounts:
  - { id: 0.0.1003, name: treasury-hot }
tail: { poll_interval: 300ms, overlap: 2s }
rules: { paths: [rules/*.yaml] }
notifiers:
  am: { kind: alertmanager, url: ${am.url}, resend_interval: 1s, group_wait: 0s }
state: { dir: ${join(env.dir, 'state')} }
http: { host: 127.0.0.1, port: 0 }
daemon: { tick_interval: 200ms }
self_monitoring: { enabled: false }
`,
    );
  });
  afterEach(async () => {
    await am?.stop();
    await pages?.close();
    await env?.close();
  });

  async function ours(): Promise<AmAlert[]> {
    const response = await fetch(`${am.url}/api/v2/alerts?active=true`);
    return ((await response.json()) as AmAlert[]).filter((a) => a.labels.alertname === ALERT);
  }

  async function until<T>(get: () => Promise<T> | T, check: (value: T) => boolean): Promise<T> {
    for (;;) {
      const value = await get();
      if (check(value)) return value;
      await delay(100);
    }
  }

  function pagesWith(status: string): number {
    return pages.requests.filter((r) => {
      const body = JSON.parse(r.body) as { status: string; alerts: { labels: Record<string, string> }[] };
      return body.status === status && body.alerts.some((a) => a.labels.alertname === ALERT);
    }).length;
  }

  it('keeps an absence alert active past 2 × resolve_timeout and a restart, pages once, and resolves it promptly', async () => {
    const first = env.run();
    const [fired] = await until(ours, (alerts) => alerts.length > 0);
    await delay(RESOLVE_TIMEOUT_S * 1000);
    first.abort();
    await first.done;
    const second = env.run();
    await delay(RESOLVE_TIMEOUT_S * 1000);
    const later = await ours();
    const firingPages = pagesWith('firing');
    const resolvedEarly = pagesWith('resolved');

    // Heartbeats every 500 ms (the window is 2 s) until Alertmanager has paged the resolve: one heartbeat alone
    // lets the absence fire again 2 s later, and a new episode in the same Alertmanager group before its next
    // flush turns the group's page back into "firing", so the resolved page would never come.
    const beat = () => env.ledger.ledger.inject({ payer: '0.0.1003', memo: 'heartbeat-7f3a' });
    beat();
    const beating = setInterval(beat, 500);
    const after = await until(ours, (alerts) => alerts.every((a) => a.startsAt !== fired?.startsAt));
    await until(
      () => pagesWith('resolved'),
      (n) => n > 0,
    ).finally(() => clearInterval(beating));
    second.abort();
    await second.done;

    expect(later).toHaveLength(1);
    expect(later[0]?.status.state).toBe('active');
    expect(later[0]?.startsAt).toBe(fired?.startsAt);
    expect(firingPages).toBe(1);
    expect(resolvedEarly).toBe(0);
    expect(after.map((a) => a.startsAt)).not.toContain(fired?.startsAt);
    // Two daemon lives plus two resolve_timeouts: about 10 s alone, but over 60 s was seen on a loaded machine.
  }, 120_000);
});

if (!ALERTMANAGER_TESTS_RUN)
  it.skip('daemon Alertmanager test skipped: prometheus-alertmanager is not installed (apt-get install prometheus-alertmanager)', () => {});
