// The global tail's hand-over lock (hand-over-lock.ts): one holder at a time, head-read pages before waiting
// sweep pages, a waiter whose poll is stopped leaves the queue, and a holder that throws passes the lock on.
import { describe, expect, it } from 'vitest';
import { createHandOverLock } from './hand-over-lock.js';

const never = new AbortController().signal;

/** A step the test finishes by hand. */
function gate(): { readonly open: () => void; readonly wait: Promise<void> } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

describe('hand-over lock', () => {
  it('runs one holder at a time, urgent waiters first, the others in arrival order', async () => {
    const lock = createHandOverLock();
    const first = gate();
    const order: string[] = [];
    let inside = 0;
    let most = 0;
    const run = (name: string, urgent: boolean, wait?: Promise<void>) =>
      lock.hold(urgent, never, async () => {
        inside += 1;
        most = Math.max(most, inside);
        order.push(name);
        await wait;
        inside -= 1;
      });

    const held = run('sweep page 1', false, first.wait);
    const rest = [run('sweep page 2', false), run('sweep move of safe', false), run('head page', true)];
    first.open();
    await Promise.all([held, ...rest]);

    expect(order).toEqual(['sweep page 1', 'head page', 'sweep page 2', 'sweep move of safe']);
    expect(most).toBe(1);
  });

  it('drops a waiter whose signal aborts, and passes the lock on when a holder throws', async () => {
    const lock = createHandOverLock();
    const first = gate();
    const stop = new AbortController();
    const order: string[] = [];

    const held = lock.hold(false, never, async () => {
      await first.wait;
      throw new Error('page failed');
    });
    const stopped = lock.hold(true, stop.signal, () => order.push('stopped'));
    const next = lock.hold(false, never, () => order.push('next'));
    stop.abort(new Error('strategy switch'));
    first.open();

    await expect(held).rejects.toThrow('page failed');
    await expect(stopped).rejects.toThrow('strategy switch');
    await next;
    expect(order).toEqual(['next']);
    await expect(lock.hold(false, stop.signal, () => 1)).rejects.toThrow('strategy switch');
    expect(await lock.hold(false, never, () => 2)).toBe(2);
  });
});
