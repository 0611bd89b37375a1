// A lane that fails at once, again and again (a fenced replica's durable() rejects before every send), must not
// turn the delivery worker into a loop: the channel is held back with a bounded exponential backoff, the failure
// is logged once (and again only when its reason changes), and the recovery once. Real worker, real SQLite outbox,
// a test clock that advances by every sleep.
import { afterEach, describe, expect, it } from 'vitest';
import { LANE_BACKOFF_MAX_MS } from './lane-backoff.js';
import { alertFor, closeAll, deliverySetup, receivers } from '../../test/helpers/receivers.js';

afterEach(closeAll);

describe('a lane that keeps failing', () => {
  it('backs off exponentially up to the bound, logs once per change of state, and recovers', async () => {
    const r = await receivers();
    let refusal: Error | undefined = new Error(
      'leadership lost: this replica no longer writes the shared state',
    );
    const env = deliverySetup(
      r,
      {},
      { durable: () => (refusal ? Promise.reject(refusal) : Promise.resolve()) },
    );
    env.outbox.enqueue(alertFor('s'), ['slack']);
    env.outbox.enqueue(alertFor('h'), ['hook']);
    const failures = () => env.logs.entries().filter((e) => String(e.msg).startsWith('delivery lane failed'));
    const started = env.clock.now();
    void env.worker.start();
    // Until the backoff has reached its bound: a worker that spins would log a failure per pass meanwhile.
    while (env.clock.now() - started < 4 * LANE_BACKOFF_MAX_MS) await new Promise((r) => setImmediate(r));
    const whileFailing = failures().length;
    refusal = new Error('the PostgreSQL state stopped accepting this replica’s writes');
    while (failures().length < 4) await new Promise((r) => setImmediate(r));
    refusal = undefined;
    const sent = () =>
      env.outbox.status('s', 'slack') === 'sent' && env.outbox.status('h', 'hook') === 'sent';
    while (!sent()) await new Promise((r) => setTimeout(r, 10));
    const sleeps = [...env.clock.sleeps];
    await env.worker.drain(0);
    const recovered = env.logs.entries().filter((e) => e.msg === 'delivery lane recovered');

    expect(whileFailing).toBe(2);
    expect(failures()).toHaveLength(4);
    expect(
      failures()
        .map((e) => e.notifier)
        .sort(),
    ).toEqual(['hook', 'hook', 'slack', 'slack']);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(LANE_BACKOFF_MAX_MS);
    expect(sleeps.filter((ms) => ms === 0)).toEqual([]);
    expect(recovered.map((e) => e.notifier).sort()).toEqual(['hook', 'slack']);
    expect([r.slack.requests.length, r.hook.requests.length]).toEqual([1, 1]);
  });
});
