// The pure parts of the PostgreSQL fault world's verdict: a repeat is excused only as the failover guarantee
// allows it (the first sender fenced, the next one sent it again), log floods and slow exits are named.
import { describe, expect, it } from 'vitest';
import {
  EXIT_BOUND_MS,
  failoverRepeats,
  peakLinesPerSecond,
  replicaViolations,
  type ReplicaObservations,
  type ReplicaOutput,
} from './replica-invariants.js';

const body = (n: number, account: string) => `alert chaos-${n} account ${account} end`;
const sent = (time: number, notifier: string, n: number, account: string) =>
  JSON.stringify({
    level: 30,
    time,
    notifier,
    alertIds: [`chaos-marker-${n}{account="${account}"}|firing|2026-11-28T09:38:51.422000001Z`],
    msg: 'notification sent',
  });
const output = (holder: string, pid: number, fenced: boolean, lines: string[]): ReplicaOutput => ({
  holder,
  pid,
  fenced,
  stdout: `${lines.join('\n')}\n`,
});
const expected = new Set(['chaos-0', 'chaos-1']);

function observations(overrides: Partial<ReplicaObservations>): ReplicaObservations {
  return {
    expected,
    channels: [{ name: 'webhook', bodies: [body(0, '0.0.1001'), body(1, '0.0.1003')] }],
    exits: [],
    outputs: [],
    tailResumeMs: 1_000,
    mostLeaders: 1,
    leadersAtEnd: 1,
    ...overrides,
  };
}

describe('failoverRepeats', () => {
  const twice = { name: 'webhook', bodies: [body(0, '0.0.1001'), body(0, '0.0.1001'), body(1, '0.0.1003')] };

  it('excuses a repeat sent by the next leader after the first sender was fenced', () => {
    const outputs = [
      output('pod-a', 1, true, [sent(1_000, 'ops-hook', 0, '0.0.1001')]),
      output('pod-b', 2, false, [sent(5_000, 'ops-hook', 0, '0.0.1001')]),
    ];

    expect(failoverRepeats(twice, expected, outputs)).toEqual({
      excused: ['webhook: chaos-0@0.0.1001×2'],
      doubled: [],
    });
    expect(replicaViolations(observations({ channels: [twice], outputs }))).toEqual([]);
  });

  it('counts as doubled a repeat by a leader that was not fenced, or one no process logged twice', () => {
    const notFenced = [
      output('pod-a', 1, false, [sent(1_000, 'ops-hook', 0, '0.0.1001')]),
      output('pod-b', 2, false, [sent(5_000, 'ops-hook', 0, '0.0.1001')]),
    ];
    const oneSender = [output('pod-a', 1, true, [sent(1_000, 'ops-hook', 0, '0.0.1001')])];

    expect(failoverRepeats(twice, expected, notFenced).doubled).toEqual(['webhook: chaos-0@0.0.1001×2']);
    expect(failoverRepeats(twice, expected, oneSender).doubled).toEqual(['webhook: chaos-0@0.0.1001×2']);
    expect(replicaViolations(observations({ channels: [twice], outputs: notFenced }))).toEqual([
      'alerts delivered twice or more, not by a fenced leader and its successor: webhook: chaos-0@0.0.1001×2',
    ]);
  });

  it('only counts sends logged on the channel’s own notifier', () => {
    const outputs = [
      output('pod-a', 1, true, [sent(1_000, 'ops-mail', 0, '0.0.1001')]),
      output('pod-b', 2, false, [sent(5_000, 'ops-hook', 0, '0.0.1001')]),
    ];

    expect(failoverRepeats(twice, expected, outputs).doubled).toHaveLength(1);
  });
});

describe('replicaViolations', () => {
  it('names a slow or forced exit, a flood of lines, a stalled tail and two leaders', () => {
    const flood = Array.from({ length: 250 }, () => '{"level":50,"time":1000,"msg":"delivery lane failed"}');

    const violations = replicaViolations(
      observations({
        exits: [
          { holder: 'pod-a', pid: 1, decision: 'leadership lost', tookMs: EXIT_BOUND_MS + 1, forced: false },
          { holder: 'pod-b', pid: 2, decision: 'SIGTERM', tookMs: undefined, forced: true },
        ],
        outputs: [output('pod-a', 1, true, flood)],
        tailResumeMs: undefined,
        mostLeaders: 2,
        leadersAtEnd: 0,
      }),
    );

    expect(violations).toEqual([
      `pod-a (pid 1, leadership lost) exited ${EXIT_BOUND_MS + 1} ms after its decision (bound ${EXIT_BOUND_MS})`,
      `pod-b (pid 2, SIGTERM) still running ${EXIT_BOUND_MS} ms after deciding to exit`,
      'pod-b (pid 2, SIGTERM) was ended by the exit deadline (code 3): a stop that could not finish',
      'pod-a (pid 1) logged delivery lane failed 250 times',
      '250 log lines in one second (bound 200)',
      'the tail did not resume: probe markers never delivered (bound 30000 ms)',
      '2 replicas answered role: leader at once',
      '0 leaders at the end, not 1',
    ]);
  });

  it('finds the busiest second across every replica', () => {
    const a = output('pod-a', 1, false, ['{"time":1000}', '{"time":1999}', '{"time":2000}']);
    const b = output('pod-b', 2, false, ['{"time":1500}']);

    expect(peakLinesPerSecond([a, b])).toBe(3);
  });
});
