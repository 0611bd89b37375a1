import { describe, expect, it } from 'vitest';
import { createMetrics } from '../observability/metrics.js';
import { openStateStore } from '../state/store.js';
import { createAckStore } from './ack-store.js';
import { explanationFields } from '../notifiers/format.js';
import { createOutbox } from './outbox.js';
import { createSilenceStore } from './silence-store.js';
import { createSuppression } from './suppression.js';
import { testAlert } from '../../test/helpers/alerts.js';

const HOUR = 3600_000;

function setup(inhibitRules = [] as Parameters<typeof createSuppression>[0]['inhibitRules']) {
  let now = 1_700_000_000_000;
  const clock = () => now;
  const store = openStateStore({ dir: ':memory:' });
  const outbox = createOutbox(store, clock);
  const silences = createSilenceStore(store, clock);
  const acks = createAckStore(store, clock);
  const metrics = createMetrics();
  const suppression = createSuppression({ store, silences, acks, metrics, inhibitRules });
  return { store, outbox, silences, acks, metrics, suppression, clock, advance: (ms: number) => (now += ms) };
}

describe('suppression', () => {
  it('holds back alerts an active silence matches, and only while it is active', () => {
    const t = setup();
    const s = t.silences.add({
      matchers: [{ name: 'account', op: '=~', value: 'treasury-.*' }],
      startsAt: t.clock() + HOUR,
      endsAt: t.clock() + 2 * HOUR,
      createdBy: 'ops',
      comment: '',
    });

    const before = t.suppression.begin(t.clock()).check(testAlert());
    t.advance(HOUR);
    const during = t.suppression.begin(t.clock()).check(testAlert());
    t.silences.expire(s.id);
    const after = t.suppression.begin(t.clock()).check(testAlert());

    expect([before, during, after]).toEqual([undefined, { reason: 'silence', by: s.id }, undefined]);
    expect(t.silences.get(s.id)?.endsAt).toBe(t.clock());
  });

  it('counts silences by state in the gauge at every pass', async () => {
    const t = setup();
    const add = (start: number, end: number) =>
      t.silences.add({
        matchers: [{ name: 'rule', op: '=', value: 'x' }],
        startsAt: start,
        endsAt: end,
        createdBy: 'a',
        comment: '',
      });
    add(t.clock(), t.clock() + HOUR);
    add(t.clock() + HOUR, t.clock() + 2 * HOUR);
    t.silences.expire(add(t.clock(), t.clock() + HOUR).id);

    t.suppression.begin(t.clock());

    const values = (await t.metrics.silences.get()).values.map((v) => [v.labels.state, v.value]);
    expect(Object.fromEntries(values)).toEqual({ active: 1, pending: 1, expired: 1 });
  });

  it('holds back the repeats of an acked episode but not its resolve, nor the next episode', () => {
    const t = setup();
    const first = testAlert({ resolves: true });
    t.acks.ack({ key: first.key, startsAt: first.startsAt, resolves: true, by: 'alice', comment: 'on it' });
    const screen = t.suppression.begin(t.clock());

    const repeat = screen.check({ ...first, id: `${first.id}|repeat-1` });
    const resolve = screen.check({ ...first, status: 'resolved' });
    const next = screen.check(testAlert({ resolves: true }, 2));

    expect([repeat?.reason, resolve, next]).toEqual(['ack', undefined, undefined]);
    const shown = screen.annotate({ ...first, status: 'resolved' });
    expect(shown.annotations.acknowledged).toBe('by alice: on it');
    expect(explanationFields(shown)).toContainEqual(['Acknowledged', 'by alice: on it']);
  });

  it('ends an ack at its expiry', () => {
    const t = setup();
    const alert = testAlert();
    t.acks.ack({
      key: alert.key,
      startsAt: alert.startsAt,
      resolves: false,
      by: 'a',
      comment: '',
      expiresAt: t.clock() + HOUR,
    });

    const during = t.suppression.begin(t.clock()).check(testAlert({}, 5));
    t.advance(HOUR);
    const after = t.suppression.begin(t.clock()).check(testAlert({}, 6));

    expect([during?.reason, after]).toEqual(['ack', undefined]);
  });

  it('inhibits targets of a firing source from the firing set', () => {
    const t = setup([
      { source_matchers: ['rule="outflow"'], target_matchers: ['rule="large-debit"'], equal: ['account'] },
    ]);
    const source = testAlert({ key: 'outflow/0.0.1234', ruleId: 'outflow', resolves: true });
    t.store.transaction(() => t.outbox.enqueue(source, ['ops']));

    const held = t.suppression.begin(t.clock()).check(testAlert());
    t.store.transaction(() => t.outbox.enqueue({ ...source, id: 'r', status: 'resolved' }, ['ops']));
    const free = t.suppression.begin(t.clock()).check(testAlert());

    expect([held, free]).toEqual([{ reason: 'inhibited', by: 'outflow/0.0.1234' }, undefined]);
  });
});
