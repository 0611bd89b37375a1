// Route escalations through the real outbox and real loopback webhook receivers: the step fires after its delay
// (an injected clock, no waiting), exactly once; an ack stops it; a resolve reaches the escalation receivers too;
// the schedule survives the store being closed and reopened (a restart).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testAlert } from '../../test/helpers/alerts.js';
import { testClock, type TestClock } from '../../test/helpers/clock.js';
import { startHttpSink, type HttpSink } from '../../test/helpers/http-sink.js';
import { captureLogs } from '../../test/helpers/log-capture.js';
import { Notifiers, Route } from '../notifiers/schema.js';
import { createMetrics } from '../observability/metrics.js';
import { emitAlerts } from '../pipeline/emit-alerts.js';
import type { Alert } from '../rules/alert/alert.js';
import { openStateStore, type StateStore } from '../state/store.js';
import { createAckStore } from './ack-store.js';
import { createChannels } from './channels.js';
import { createDeliveryWorker } from './delivery-worker.js';
import { escalateDue } from './escalate.js';
import { createOutbox } from './outbox.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const MINUTE = 60_000;
const routes = [
  Route.parse({
    match: { severity: ['critical'] },
    notify: ['ops'],
    escalate: [{ after: '10m', notify: ['pager'] }],
  }),
];

async function sinks() {
  const ops = await startHttpSink();
  const pager = await startHttpSink();
  cleanups.push(
    () => ops.close(),
    () => pager.close(),
  );
  return { ops, pager };
}

function daemon(dir: string, clock: TestClock, r: { ops: HttpSink; pager: HttpSink }) {
  const store = openStateStore({ dir });
  const logs = captureLogs();
  const deps = { now: clock.now, sleep: clock.sleep, logger: logs.logger, stdout: process.stdout };
  const hook = (url: string) => ({ kind: 'webhook', url, signing_key: 'k', group_wait: '0s' });
  const channels = createChannels(
    Notifiers.parse({ ops: hook(`${r.ops.origin}/hook`), pager: hook(`${r.pager.origin}/hook`) }),
    deps,
  );
  const outbox = createOutbox(store, clock.now);
  const metrics = createMetrics();
  const acks = createAckStore(store, clock.now);
  const worker = createDeliveryWorker({ ...deps, outbox, channels, random: () => 0, metrics });
  const emit = (alerts: Alert[]) =>
    store.transaction(() => emitAlerts({ outbox, routes: () => routes }, alerts));
  const escalate = () => escalateDue({ store, outbox, acks, now: clock.now, metrics, log: logs.logger });
  return { store, outbox, acks, worker, emit, escalate, metrics, logs };
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'escalation-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function closeLater(store: StateStore) {
  cleanups.push(() => store.close());
}

const base = testAlert({ resolves: true, notify: [] });
/** Ids as the engine builds them: `key|status|startsAt`. */
const firing: Alert = { ...base, id: `${base.key}|firing|${base.startsAt}` };
const resolved: Alert = { ...firing, id: firing.id.replace('firing', 'resolved'), status: 'resolved' };
const bodyOf = (sink: HttpSink, i: number) =>
  JSON.parse(sink.requests[i]?.body ?? '{}') as { alerts: Alert[] };

describe('escalate: a route notifies more receivers when nobody acknowledges', () => {
  it('sends the escalation after the delay, once, saying so; the resolve reaches the escalation receiver too', async () => {
    const r = await sinks();
    const clock = testClock();
    const d = daemon(':memory:', clock, r);
    closeLater(d.store);
    d.emit([firing]);
    await d.worker.runOnce();

    clock.advance(10 * MINUTE - 1);
    const early = d.escalate();
    clock.advance(1);
    const due = d.escalate();
    const again = d.escalate();
    await d.worker.runOnce();
    d.emit([resolved]);
    await d.worker.runOnce();

    expect({ early, due, again }).toEqual({ early: 0, due: 1, again: 0 });
    expect(r.ops.requests).toHaveLength(2);
    expect(r.pager.requests).toHaveLength(2);
    const escalation = bodyOf(r.pager, 0).alerts[0];
    expect(escalation?.summary).toBe(`ESCALATED (not acknowledged for 10m): ${firing.summary}`);
    expect(escalation?.annotations.escalation).toBe('not acknowledged for 10m');
    expect(escalation?.key).toBe(firing.key);
    expect(bodyOf(r.pager, 1).alerts[0]?.status).toBe('resolved');
    expect((await d.metrics.escalations.get()).values).toContainEqual(
      expect.objectContaining({ labels: { outcome: 'sent' }, value: 1 }),
    );
    expect(d.outbox.escalations.pending()).toBe(0);
  });

  it('keeps the alert in the re-send set of a receiver that an escalation reached (Alertmanager)', async () => {
    const r = await sinks();
    const clock = testClock();
    const d = daemon(':memory:', clock, r);
    closeLater(d.store);
    d.emit([firing]);
    const before = d.outbox.firing.delivered('pager', '', 10).length;
    clock.advance(10 * MINUTE);
    d.escalate();
    await d.worker.runOnce();

    expect(before).toBe(0);
    expect(d.outbox.firing.delivered('pager', '', 10).map((a) => a.key)).toEqual([firing.key]);
  });

  it('an ack before the delay stops it', async () => {
    const r = await sinks();
    const clock = testClock();
    const d = daemon(':memory:', clock, r);
    closeLater(d.store);
    d.emit([firing]);
    await d.worker.runOnce();
    d.acks.ack({ key: firing.key, startsAt: firing.startsAt, resolves: true, by: 'bob', comment: 'on it' });

    clock.advance(10 * MINUTE);
    const sent = d.escalate();
    await d.worker.runOnce();

    expect(sent).toBe(0);
    expect(r.ops.requests).toHaveLength(1);
    expect(r.pager.requests).toHaveLength(0);
    expect(d.outbox.escalations.pending()).toBe(0);
    expect((await d.metrics.escalations.get()).values).toContainEqual(
      expect.objectContaining({ labels: { outcome: 'acked' }, value: 1 }),
    );
  });

  it('a resolve before the delay ends it; a reminder of the same episode does not restart the clock', async () => {
    const r = await sinks();
    const clock = testClock();
    const d = daemon(':memory:', clock, r);
    closeLater(d.store);
    d.emit([firing]);
    clock.advance(5 * MINUTE);
    d.emit([{ ...firing, id: `${firing.id}|repeat-1` }]);
    const nextAfterReminder = d.outbox.escalations.nextDueAt();
    d.emit([resolved]);
    clock.advance(10 * MINUTE);

    expect(nextAfterReminder).toBe(clock.now() - 15 * MINUTE + 10 * MINUTE);
    expect(d.escalate()).toBe(0);
    expect(d.outbox.escalations.pending()).toBe(0);
  });

  it('survives a restart: the schedule is on disk, and the escalation goes out from the new process', async () => {
    const r = await sinks();
    const clock = testClock();
    const dir = tempDir();
    const first = daemon(dir, clock, r);
    first.emit([firing]);
    await first.worker.runOnce();
    await first.worker.stop();
    first.store.close();

    clock.advance(11 * MINUTE);
    const second = daemon(dir, clock, r);
    closeLater(second.store);
    const sent = second.escalate();
    await second.worker.runOnce();
    const [request] = await r.pager.waitForRequests(1);

    expect(sent).toBe(1);
    expect(r.ops.requests).toHaveLength(1);
    expect((JSON.parse(request?.body ?? '{}') as { alerts: Alert[] }).alerts[0]?.summary).toMatch(
      /^ESCALATED \(not acknowledged for 10m\)/,
    );
  });

  it('an event alert (never resolves) escalates each unacknowledged occurrence once', async () => {
    const r = await sinks();
    const clock = testClock();
    const d = daemon(':memory:', clock, r);
    closeLater(d.store);
    const event = testAlert({ notify: [] });
    d.emit([event]);
    clock.advance(10 * MINUTE);

    expect(d.escalate()).toBe(1);
    expect(d.escalate()).toBe(0);
    expect(d.outbox.escalations.pending()).toBe(0);
  });
});

describe('escalate: config', () => {
  it('refuses an escalation delay that is not a duration, and unknown keys', () => {
    const bad = Route.safeParse({ notify: ['ops'], escalate: [{ after: 10, notify: ['pager'] }] });
    const unknown = Route.safeParse({ notify: ['ops'], escalate: [{ after: '10m', notfy: ['pager'] }] });

    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/a number needs a unit/);
    expect(unknown.success).toBe(false);
  });
});
