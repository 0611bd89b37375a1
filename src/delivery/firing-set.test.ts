import { describe, expect, it } from 'vitest';
import { openStateStore } from '../state/store.js';
import { createOutbox } from './outbox.js';
import { testAlert } from '../../test/helpers/alerts.js';

const STARTS = '2023-11-14T22:13:00.000Z';
const firing = testAlert({
  key: 'burst/0.0.1234',
  id: `burst/0.0.1234|firing|${STARTS}`,
  startsAt: STARTS,
  resolves: true,
});

function setup() {
  const store = openStateStore({ dir: ':memory:' });
  const outbox = createOutbox(store, () => 1000);
  const keys = () => outbox.firing.delivered('am', '', 100).map((a) => a.id);
  return { store, outbox, keys };
}

describe('the firing set (kept by the outbox)', () => {
  it('holds a firing alert that will resolve once its episode was sent, and drops it on the resolve', () => {
    const { outbox, keys } = setup();
    outbox.enqueue(firing, ['am']);
    const beforeSent = keys();
    outbox.markSent([firing.id], 'am', 2000);
    const sent = keys();

    outbox.enqueue({ ...firing, id: `${firing.id}|resolved`, status: 'resolved' }, ['am']);

    expect(beforeSent).toEqual([]);
    expect(sent).toEqual([firing.id]);
    expect(keys()).toEqual([]);
  });

  it('keeps the latest reminder of an episode whose first alert was sent', () => {
    const { outbox, keys } = setup();
    outbox.enqueue(firing, ['am']);
    outbox.markSent([firing.id], 'am', 2000);

    outbox.enqueue({ ...firing, id: `${firing.id}|repeat-1`, summary: 'still' }, ['am']);

    expect(keys()).toEqual([`${firing.id}|repeat-1`]);
  });

  it.each([
    ['a per-record alert (it never resolves)', { resolves: undefined }],
    ['an alert for another channel', {}],
  ])('does not hold %s', (_, overrides) => {
    const { outbox, keys } = setup();
    const alert = { ...firing, ...overrides };
    const channel = 'resolves' in overrides ? 'am' : 'ops-slack';
    outbox.enqueue(alert, [channel]);

    outbox.markSent([alert.id], channel, 2000);

    expect(keys()).toEqual([]);
  });

  it('is written in the enqueue transaction: a rolled-back page leaves nothing behind', () => {
    const { store, outbox } = setup();

    expect(() =>
      store.transaction(() => {
        outbox.enqueue(firing, ['am']);
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');

    expect(outbox.firing.size()).toBe(0);
  });
});
