// PagerDuty and Opsgenie through the real outbox and delivery worker, against loopback servers that behave as the
// services document: a firing alert opens one PagerDuty alert (trigger) and one Opsgenie alert (create with alias),
// a failed first attempt (503, 429 with Retry-After) is retried, the delivery side restarts (new store handle, new
// worker) between firing and resolve, and the resolve closes both with the same dedup_key / alias: each service
// sees exactly one trigger or create and one resolve or close.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDelivery, type Delivery } from '../../src/app/delivery.js';
import { createChannels } from '../../src/delivery/channels.js';
import { createOutbox, type Outbox } from '../../src/delivery/outbox.js';
import { createMetrics } from '../../src/observability/metrics.js';
import type { Alert } from '../../src/rules/alert/alert.js';
import { openStateStore, type StateStore } from '../../src/state/store.js';
import { pagerduty } from '../../src/notifiers/pagerduty/pagerduty.js';
import { opsgenie } from '../../src/notifiers/opsgenie/opsgenie.js';
import { testAlert } from '../helpers/alerts.js';
import { captureLogs } from '../helpers/log-capture.js';
import { startPagerdutyServer, type PagerdutyServer } from '../helpers/pagerduty-server.js';
import { startOpsgenieServer, type OpsgenieServer } from '../helpers/opsgenie-server.js';

const ROUTING_KEY = 'lifecycle-routing-key-0123456789ab';
const API_KEY = 'lifecycle-opsgenie-key';

interface Side {
  readonly store: StateStore;
  readonly outbox: Outbox;
  readonly delivery: Delivery;
}

describe('paging receivers through the outbox', () => {
  let dir: string;
  let pd: PagerdutyServer;
  let og: OpsgenieServer;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paging-lifecycle-'));
    pd = await startPagerdutyServer({ routingKeys: [ROUTING_KEY] });
    og = await startOpsgenieServer({ apiKeys: [API_KEY] });
  });
  afterEach(async () => {
    await pd.close();
    await og.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function start(pdKeys: Record<string, unknown> = {}): Side {
    const store = openStateStore({ dir });
    const outbox = createOutbox(store, Date.now);
    const deps = {
      now: Date.now,
      sleep: (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }),
      logger: captureLogs().logger,
      stdout: process.stdout,
    };
    const channels = createChannels(
      {
        pd: pagerduty.config.parse({
          kind: 'pagerduty',
          routing_key: ROUTING_KEY,
          url: pd.url,
          group_wait: '0s',
          ...pdKeys,
        }),
        og: opsgenie.config.parse({ kind: 'opsgenie', api_key: API_KEY, api_url: og.url, group_wait: '0s' }),
      },
      deps,
    );
    const delivery = startDelivery({
      ...deps,
      outbox,
      channels,
      random: () => 0,
      metrics: createMetrics(),
      idleMs: 100,
      retry: { baseDelayMs: 100, maxDelayMs: 500 },
    });
    return { store, outbox, delivery };
  }

  async function stop(side: Side): Promise<void> {
    await side.delivery.stop(2000);
    side.store.close();
  }

  function emit(side: Side, alert: Alert): void {
    side.store.transaction(() => side.outbox.enqueue(alert, ['pd', 'og']));
    side.delivery.worker.poke();
  }

  it('trigger/create, a restart, then resolve/close with the same key: once each, after retried failures', async () => {
    const firing = testAlert({
      key: 'debit-burst{account="0.0.1003"}',
      id: 'debit-burst{account="0.0.1003"}|firing|2025-11-13T02:14:20Z',
      ruleId: 'debit-burst',
      resolves: true,
    });
    pd.script({ status: 503 });
    og.script({ status: 429, headers: { 'retry-after': '1' } });
    let side = start();

    emit(side, firing);
    await pd.until(() => pd.alerts.length === 1);
    await og.until(() => og.alerts.length === 1);
    await stop(side);
    side = start();
    emit(side, { ...firing, id: `${firing.id}|resolved`, status: 'resolved', resolution: 'burst over' });
    await pd.until(() => pd.alerts[0]?.status === 'resolved');
    await og.until(() => og.alerts[0]?.status === 'closed');
    await stop(side);

    const events = pd.accepted().map((e) => [e.event_action, e.dedup_key]);
    expect(events).toEqual([
      ['trigger', 'debit-burst{account="0.0.1003"}'],
      ['resolve', 'debit-burst{account="0.0.1003"}'],
    ]);
    expect(pd.sink.requests[0]?.answer.status).toBe(503);
    expect(og.sink.requests[0]?.answer.status).toBe(429);
    expect(og.alerts).toEqual([
      expect.objectContaining({ alias: 'debit-burst{account="0.0.1003"}', status: 'closed', count: 1 }),
    ]);
    expect(og.alerts[0]?.closeNote).toBe('Resolved by ledger-sentinel: burst over');
    expect(og.failedRequests).toEqual([]);
  }, 60_000);

  it("a 429 without Retry-After waits PagerDuty's pause (capped by max_retry_after), then the event lands once", async () => {
    const firing = testAlert({ key: 'burst{account="0.0.1004"}', id: 'burst{account="0.0.1004"}|firing|t' });
    pd.script({
      status: 429,
      headers: { 'content-type': 'application/json' },
      body: '{"status":"throttle event","message":"Requests for this service are arriving too quickly."}',
    });
    const side = start({ max_retry_after: '1s' });

    emit(side, firing);
    await pd.until(() => pd.alerts.length === 1);
    await stop(side);

    expect(pd.sink.requests.map((r) => r.answer.status)).toEqual([429, 202]);
    expect(pd.alerts).toEqual([
      expect.objectContaining({ dedupKey: 'burst{account="0.0.1004"}', triggers: 1 }),
    ]);
  }, 60_000);
});
