// The total deadline of one attempt (ledger.timeouts.total): it ends a body trickled a byte at a time, which
// undici's body timeout (restarted on every chunk) never does, and a response whose headers never come.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import {
  collect,
  counterValue,
  harness,
  tx,
  type Harness,
} from '../../test/fixtures/ledger/client-harness.js';
import { LedgerNetworkError, RequestDeadlineError } from './errors.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Starts a 200 and then sends one space every `everyMs`, forever: each chunk restarts undici's body timeout. */
function trickle(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const timer = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(timer));
}

describe('total deadline per attempt', () => {
  it('ends a trickled body, retries it with reason deadline and meters every attempt', async () => {
    h = await harness((_req, res) => trickle(res, 20), {
      timeouts: { bodyMs: 10_000, totalMs: 300 },
      retry: { maxAttempts: 2 },
    });

    const err = (await collect(h.client.listTransactions({})).catch((e: unknown) => e)) as LedgerNetworkError;

    expect(err).toBeInstanceOf(LedgerNetworkError);
    expect(err.reason).toBe('deadline');
    expect(err.cause).toBeInstanceOf(RequestDeadlineError);
    expect((err.cause as Error).message).toMatch(/total deadline of 300 ms.*ledger\.timeouts\.total/);
    expect(h.server.requests).toHaveLength(2);
    const labels = { endpoint: 'transactions', reason: 'deadline' };
    expect(await counterValue(h.metrics.requestErrors, labels)).toBe(2);
    expect(await counterValue(h.metrics.retries, labels)).toBe(1);
  });

  it('covers the wait for the headers too', async () => {
    h = await harness(() => undefined, {
      timeouts: { headersMs: 10_000, totalMs: 200 },
      retry: { maxAttempts: 1 },
    });

    const run = collect(h.client.listTransactions({}));

    await expect(run).rejects.toMatchObject({ name: 'LedgerNetworkError', reason: 'deadline' });
  });

  it('lets a slow body that completes within the deadline through', async () => {
    const body = JSON.stringify({ transactions: [tx(1)], links: { next: null } });
    h = await harness(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const parts = [body.slice(0, 10), body.slice(10, 40), body.slice(40)];
        const timer = setInterval(() => {
          const part = parts.shift();
          if (part === undefined) {
            clearInterval(timer);
            res.end();
          } else res.write(part);
        }, 10);
      },
      { timeouts: { totalMs: 10_000 } },
    );

    const [page] = await collect(h.client.listTransactions({}));

    expect(page?.records).toHaveLength(1);
    expect(
      await counterValue(h.metrics.requestErrors, { endpoint: 'transactions', reason: 'deadline' }),
    ).toBe(0);
  });

  it('tells an abort by the caller from its own deadline', async () => {
    const controller = new AbortController();
    h = await harness(
      (_req, res) => {
        trickle(res, 20);
        controller.abort(new Error('shutting down'));
      },
      { timeouts: { totalMs: 10_000 } },
    );

    const err = await collect(h.client.listTransactions({}, { signal: controller.signal })).catch(
      (e: unknown) => e,
    );

    expect(err).not.toBeInstanceOf(LedgerNetworkError);
    expect(await counterValue(h.metrics.requestErrors, { endpoint: 'transactions', reason: 'aborted' })).toBe(
      1,
    );
  });
});
