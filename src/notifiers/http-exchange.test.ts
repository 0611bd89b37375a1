import { afterEach, describe, expect, it } from 'vitest';
import { startHttpSink, type HttpSink } from '../../test/helpers/http-sink.js';
import { checkAnswer, httpExchange, MAX_ANSWER_BYTES, safeWords } from './http-exchange.js';

let sink: HttpSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

const answer = (status: number, retryAfter?: string) => ({ status, retryAfter, body: '' });
const options = { now: () => 0, maxRetryAfterMs: 60_000 };

describe('httpExchange', () => {
  it('reads at most MAX_ANSWER_BYTES of an answer', async () => {
    sink = await startHttpSink(() => ({ status: 400, body: 'x'.repeat(5_000_000) }));

    const got = await httpExchange({
      what: 'test receiver',
      url: `${sink.origin}/h`,
      body: '{}',
      timeoutMs: 5000,
      signal: new AbortController().signal,
    });

    expect(got.status).toBe(400);
    expect(got.body.length).toBe(MAX_ANSWER_BYTES);
  });
});

describe('checkAnswer', () => {
  it.each([
    ['the body wait before the header', answer(429, '30'), 2.5, 2500],
    ['the header when the body has none', answer(429, '30'), undefined, 30_000],
    ['the header when the body wait is negative', answer(429, '30'), -1, 30_000],
    ['the header when the body wait is not a number', answer(429, '30'), '7', 30_000],
    ['the cap over a long wait', answer(429), 3600, 60_000],
  ])('takes %s', (_name, got, retryAfterSeconds, expected) => {
    const thrown = (() => {
      try {
        checkAnswer('r', got, { ...options, retryAfterSeconds });
      } catch (err) {
        return err;
      }
    })();

    expect(thrown).toMatchObject({ retryable: true, retryAfterMs: expected });
  });

  it('passes a 2xx and appends what the receiver said to a failure', () => {
    expect(() => checkAnswer('r', answer(204), options)).not.toThrow();
    expect(() => checkAnswer('r', answer(404), { ...options, said: 'X said: gone' })).toThrow(
      'r answered HTTP 404: no such receiver: the webhook was removed or the URL is wrong (permanent; check the notifier URL) (X said: gone)',
    );
  });
});

describe('safeWords', () => {
  it.each([
    ['Bad Request: chat not found', [], 'Bad Request: chat not found'],
    ['<script>alert(1)</script> & "x"', [], 'script alert(1) script x'],
    ['echo tok-SECRET-123 back', ['tok-SECRET-123'], 'echo redacted back'],
    [`${'a'.repeat(100)}`, [], `${'a'.repeat(80)}…`],
    [10015, [], '10015'],
    [{ a: 1 }, [], undefined],
  ])('%j', (text, secrets, expected) => {
    expect(safeWords(text, secrets)).toBe(expected);
  });
});
