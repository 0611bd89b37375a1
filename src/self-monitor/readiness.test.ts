import { describe, expect, it } from 'vitest';
import type { ChannelPause } from '../delivery/pause-board.js';
import { deliveryCheck } from './readiness.js';

const NOW = 10_000_000;
const pause = (channel: string, sinceAgoMs: number): ChannelPause => ({
  channel,
  since: NOW - sinceAgoMs,
  until: NOW + 60_000,
  askedMs: 3_600_000,
  waitMs: 60_000,
  reason: 'http_429',
});
const base = { lastPassAt: NOW - 1000, notifiers: ['slack', 'mail'], pausedAfterMs: 300_000 };

describe('the /readyz delivery check', () => {
  it.each([
    ['nothing paused', { pauses: [] }, true, /^delivering$/],
    ['a short pause', { pauses: [pause('slack', 10_000)] }, true, /^delivering$/],
    [
      'one of two notifiers paused for long',
      { pauses: [pause('slack', 600_000)] },
      true,
      /paused by the receiver: slack \(Retry-After 3600 s, for 600 s\)/,
    ],
    [
      'every notifier paused for long',
      { pauses: [pause('slack', 600_000), pause('mail', 400_000)] },
      false,
      /every notifier is paused/,
    ],
    [
      'a worker that stopped passing',
      { pauses: [], lastPassAt: NOW - 120_000 },
      false,
      /has not run for 120 s/,
    ],
    ['a worker not started yet', { pauses: [], lastPassAt: undefined }, true, /^delivering$/],
  ])('%s', (_name, input, ok, message) => {
    const check = deliveryCheck({ ...base, ...input }, NOW);

    expect(check.ok).toBe(ok);
    expect(check.message).toMatch(message);
  });
});
