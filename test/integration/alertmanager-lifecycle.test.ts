// The Alertmanager lifecycle against the real binary (apt: prometheus-alertmanager): an alert that will resolve is
// kept active by re-sends past Alertmanager's resolve_timeout, across a restart of the delivery side (new state
// store handle, new worker), and ends when its resolve is posted; a per-record alert is left to resolve_timeout.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelivery, type Delivery } from '../../src/app/delivery.js';
import { alertmanager } from '../../src/notifiers/alertmanager/alertmanager.js';
import { createChannels } from '../../src/delivery/channels.js';
import { createOutbox, type Outbox } from '../../src/delivery/outbox.js';
import {
  ALERTMANAGER_TESTS_RUN,
  alertmanagerBinary,
  startAlertmanager,
  type AlertmanagerProcess,
} from '../helpers/alertmanager-process.js';
import { testAlert } from '../helpers/alerts.js';
import { captureLogs } from '../helpers/log-capture.js';
import { createMetrics, type Metrics } from '../../src/observability/metrics.js';
import type { Alert } from '../../src/rules/alert/alert.js';
import { openStateStore, type StateStore } from '../../src/state/store.js';
import { startHttpSink, type HttpSink } from '../helpers/http-sink.js';

const RESOLVE_TIMEOUT_S = 3;

interface Daemon {
  readonly store: StateStore;
  readonly outbox: Outbox;
  readonly delivery: Delivery;
  readonly metrics: Metrics;
}

interface AmAlert {
  readonly labels: Record<string, string>;
  readonly startsAt: string;
  readonly status: { readonly state: string };
}

interface AmNotification {
  readonly status: string;
  readonly alerts: readonly { readonly labels: Record<string, string> }[];
}

describe.skipIf(!ALERTMANAGER_TESTS_RUN)('the Alertmanager lifecycle against the real binary', () => {
  let am: AlertmanagerProcess;
  let pages: HttpSink;
  let dir: string;
  beforeAll(async () => {
    pages = await startHttpSink();
    am = await startAlertmanager(alertmanagerBinary(), {
      resolveTimeout: `${RESOLVE_TIMEOUT_S}s`,
      webhookUrl: `${pages.origin}/page`,
    });
    dir = mkdtempSync(join(tmpdir(), 'am-lifecycle-'));
  });
  afterAll(async () => {
    await am?.stop();
    await pages?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The delivery side of a daemon on the state dir: what a restart stops and starts again. */
  function startDaemon(): Daemon {
    const store = openStateStore({ dir });
    const outbox = createOutbox(store, Date.now);
    const config = alertmanager.config.parse({
      kind: 'alertmanager',
      url: am.url,
      resend_interval: '1s',
      group_wait: '0s',
    });
    const deps = {
      now: Date.now,
      sleep: (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }),
      logger: captureLogs().logger,
      stdout: process.stdout,
    };
    const channels = createChannels({ am: config }, deps);
    const metrics = createMetrics();
    const delivery = startDelivery({ ...deps, outbox, channels, random: () => 0, metrics, idleMs: 200 });
    return { store, outbox, delivery, metrics };
  }

  async function stopDaemon(daemon: Daemon): Promise<void> {
    await daemon.delivery.stop(2000);
    daemon.store.close();
  }

  function emit(daemon: Daemon, alert: Alert): void {
    daemon.store.transaction(() => daemon.outbox.enqueue(alert, ['am']));
    daemon.delivery.worker.poke();
  }

  async function activeAlerts(): Promise<AmAlert[]> {
    const response = await fetch(`${am.url}/api/v2/alerts?active=true&silenced=false&inhibited=false`);
    return (await response.json()) as AmAlert[];
  }

  async function untilAlerts(check: (alerts: AmAlert[]) => boolean): Promise<AmAlert[]> {
    for (;;) {
      const alerts = await activeAlerts();
      if (check(alerts)) return alerts;
      await delay(100);
    }
  }

  function notifications(key: string, status: string): AmNotification[] {
    return pages.requests
      .map((r) => JSON.parse(r.body) as AmNotification)
      .filter((n) => n.status === status && n.alerts.some((a) => a.labels.alert_key === key));
  }

  const keyOf = (a: AmAlert) => a.labels.alert_key;

  it('keeps a stateful alert active past twice resolve_timeout across a restart, with one page, and ends it on its resolve', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const window = testAlert({
      key: 'debit-burst/0.0.1234',
      id: `debit-burst/0.0.1234|firing|${startsAt}`,
      ruleId: 'debit-burst',
      startsAt,
      resolves: true,
    });
    const perRecord = testAlert({ key: 'large-debit/0.0.1234', startsAt });
    let daemon = startDaemon();

    // The per-record alerts are left to Alertmanager's resolve_timeout: each one's disappearance is the positive
    // event that proves a whole resolve_timeout went by (Alertmanager's own clock) before the absence of a
    // resolve of the stateful alert is looked at — no fixed sleep stands in for it.
    const perRecordAfter = testAlert({
      key: 'large-debit/0.0.5678',
      id: 'large-debit/0.0.5678/firing/1',
      startsAt,
    });
    emit(daemon, window);
    emit(daemon, perRecord);
    await untilAlerts((alerts) => alerts.length === 2);
    await untilAlerts((alerts) => !alerts.some((a) => keyOf(a) === perRecord.key));
    await stopDaemon(daemon);
    daemon = startDaemon();
    emit(daemon, perRecordAfter);
    await untilAlerts((alerts) => alerts.some((a) => keyOf(a) === perRecordAfter.key));
    await untilAlerts((alerts) => !alerts.some((a) => keyOf(a) === perRecordAfter.key));
    const later = await activeAlerts();
    const firingPages = notifications(window.key, 'firing');
    const resolvedEarly = notifications(window.key, 'resolved');
    emit(daemon, {
      ...window,
      id: `${window.id}|resolved`,
      status: 'resolved',
      endsAt: new Date().toISOString(),
    });
    const after = await untilAlerts((alerts) => !alerts.some((a) => keyOf(a) === window.key));
    while (notifications(window.key, 'resolved').length === 0) await delay(100);
    const resolvedPages = notifications(window.key, 'resolved');
    const resent = await daemon.metrics.notificationResends.get();
    await stopDaemon(daemon);

    // Past 2 × resolve_timeout (each proven by a per-record alert expiring) and a restart: still there, the same
    // alert (startsAt kept), and only once.
    expect(later.map(keyOf)).toEqual([window.key]);
    expect(later[0]?.status.state).toBe('active');
    expect(later[0]?.startsAt).toBe(startsAt);
    // The per-record alert was left to resolve_timeout, as before.
    expect(later.map(keyOf)).not.toContain(perRecord.key);
    expect(firingPages).toHaveLength(1);
    expect(resolvedEarly).toHaveLength(0);
    expect(after.map(keyOf)).not.toContain(window.key);
    expect(resolvedPages).toHaveLength(1);
    const sent = resent.values.find((v) => v.labels.outcome === 'sent');
    expect(sent?.value).toBeGreaterThan(0);
  }, 60_000);
});

if (!ALERTMANAGER_TESTS_RUN)
  it.skip('real Alertmanager lifecycle test skipped: prometheus-alertmanager is not installed (apt-get install prometheus-alertmanager)', () => {});
