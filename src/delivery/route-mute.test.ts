// Route mute windows through the real outbox and a real loopback webhook receiver: a muted notification is held
// until the window ends and then let through when its alert still fires; an event, and an alert that resolved
// during the window, are recorded as muted and never sent (Alertmanager's outcome).
import { afterEach, describe, expect, it } from 'vitest';
import { testAlert } from '../../test/helpers/alerts.js';
import { startHttpSink, type HttpSink } from '../../test/helpers/http-sink.js';
import { closeAll, closeLater, deliverySetupFor } from '../../test/helpers/receivers.js';
import { Notifiers, Route } from '../notifiers/schema.js';
import { TimeIntervals } from '../notifiers/time-intervals-config.js';
import { emitAlerts } from '../pipeline/emit-alerts.js';
import type { Alert } from '../rules/alert/alert.js';
import { createRouteMutes } from './route-mute.js';

afterEach(closeAll);

const intervals = TimeIntervals.parse([
  { name: 'night', time_intervals: [{ times: [{ start_time: '00:00', end_time: '06:00' }] }] },
]);
const routes = [Route.parse({ notify: ['hook'], mute_time_intervals: ['night'] })];
const AT_3AM = Date.UTC(2026, 2, 10, 3, 0);
const AT_6AM = Date.UTC(2026, 2, 10, 6, 0);

async function setup() {
  const sink = await startHttpSink();
  closeLater(sink);
  const env = deliverySetupFor(
    Notifiers.parse({
      hook: { kind: 'webhook', url: `${sink.origin}/hook`, signing_key: 'k', group_wait: '0s' },
    }),
    {
      mutes: createRouteMutes(
        () => routes,
        () => intervals,
      ),
    },
  );
  env.clock.advance(AT_3AM - env.clock.now());
  const emit = (alerts: Alert[]) =>
    env.store.transaction(() => emitAlerts({ outbox: env.outbox, routes: () => routes }, alerts));
  return { ...env, sink, emit };
}

const ids = (sink: HttpSink) =>
  sink.requests.flatMap((r) => (JSON.parse(r.body) as { alerts: Alert[] }).alerts.map((a) => a.id));

describe('mute_time_intervals on a route', () => {
  it('holds a firing alert until the window ends, then sends it; drops an event', async () => {
    const env = await setup();
    const windowed = testAlert({ key: 'w', id: 'w|firing|1', resolves: true, notify: [] });
    const event = testAlert({ key: 'e', id: 'e|firing|1', notify: [] });
    env.emit([windowed, event]);

    await env.worker.runOnce();
    const during = {
      windowed: env.outbox.status(windowed.id, 'hook'),
      event: env.outbox.status(event.id, 'hook'),
      next: env.outbox.nextDueAt(),
    };
    env.clock.advance(AT_6AM - env.clock.now());
    await env.worker.runOnce();
    await env.sink.waitForRequests(1);

    expect(during).toEqual({ windowed: 'pending', event: 'silenced', next: AT_6AM });
    expect(ids(env.sink)).toEqual([windowed.id]);
    expect(env.outbox.status(windowed.id, 'hook')).toBe('sent');
    expect(env.logs.entries().map((l) => l.msg)).toEqual(
      expect.arrayContaining(['notification muted until', 'notification muted, not sent']),
    );
  });

  it('an alert that resolved during the window is sent neither firing nor resolved', async () => {
    const env = await setup();
    const firing = testAlert({ key: 'w', resolves: true, notify: [], startsAt: '2026-03-10T02:59:00.000Z' });
    const w = { ...firing, id: `w|firing|${firing.startsAt}` };
    const resolved = { ...w, id: `w|resolved|${firing.startsAt}`, status: 'resolved' as const };
    const later = testAlert({ key: 'x', id: 'x|firing|1', resolves: true, notify: [] });
    env.emit([w]);
    await env.worker.runOnce();
    env.emit([resolved, later]);
    await env.worker.runOnce();
    env.clock.advance(AT_6AM - env.clock.now());
    await env.worker.runOnce();
    await env.sink.waitForRequests(1);

    expect(ids(env.sink)).toEqual([later.id]);
    expect(env.outbox.status(w.id, 'hook')).toBe('silenced');
    expect(env.outbox.status(resolved.id, 'hook')).toBe('silenced');
  });

  it("does not mute the rule's own notify", async () => {
    const env = await setup();
    const own = testAlert({ key: 'o', id: 'o|firing|1', resolves: true, notify: ['hook'] });
    env.emit([own]);
    await env.worker.runOnce();
    await env.sink.waitForRequests(1);

    expect(ids(env.sink)).toEqual([own.id]);
  });
});

describe('active_time_intervals on a route', () => {
  it('mutes outside the interval, and says until when', () => {
    const office = TimeIntervals.parse([
      {
        name: 'office',
        time_intervals: [
          {
            weekdays: ['monday:friday'],
            times: [{ start_time: '09:00', end_time: '17:00' }],
            location: 'America/New_York',
          },
        ],
      },
    ]);
    const route = Route.parse({ notify: ['hook'], active_time_intervals: ['office'] });
    const mutes = createRouteMutes(
      () => [route],
      () => office,
    );
    const alert = testAlert({ notify: [] });
    // Saturday 2026-03-07 12:00 UTC; the next Monday is after New York's spring-forward (8 March): 09:00 EDT = 13:00Z.
    const saturday = mutes.check(alert, 'hook', Date.UTC(2026, 2, 7, 12));
    const monday = mutes.check(alert, 'hook', Date.UTC(2026, 2, 9, 13, 30));

    expect(saturday).toEqual({
      by: 'outside active_time_intervals: office',
      until: Date.UTC(2026, 2, 9, 13),
    });
    expect(monday).toBeUndefined();
  });
});
