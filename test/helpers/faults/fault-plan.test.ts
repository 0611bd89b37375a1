// The pure parts of the fault harness: plans hold only the enabled kinds and always a fault, Retry-After values
// render as sent, hostile records keep the page's records, and alerts are counted per (marker, account).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertTally, alertsOf } from './alert-tally.js';
import {
  FAULT_KINDS,
  LOCK_WORLD_LEASE_TTL_MS,
  POSTGRES_FAULT_KINDS,
  faultPlan,
  retryAfterHeader,
  type FaultKind,
  type FaultPlan,
} from './fault-plan.js';
import { duplicate, futureRecord, malformedRecord, reorder } from './hostile-records.js';

function kindsOf(plan: FaultPlan): Set<string> {
  return new Set([
    ...plan.query.map((f) => f.kind),
    ...plan.slack.map((f) => `slack-${f.kind}`),
    ...plan.smtp.map((f) => `smtp-${f.kind}`),
    ...plan.clock.map((f) => `clock-${f.kind}`),
    ...plan.process.map((f) => `process-${f.kind}`),
    ...plan.locks.map((f) => (f.kind === 'lock' ? 'table-lock' : 'lock-none')),
  ]);
}

describe('faultPlan', () => {
  it('draws only the enabled kinds, and at least one fault per service that has kinds', () => {
    const subsets = fc.subarray([...FAULT_KINDS, ...POSTGRES_FAULT_KINDS], { minLength: 1 });

    fc.assert(
      fc.property(
        subsets.chain((kinds) => fc.tuple(fc.constant(kinds), faultPlan(kinds))),
        ([kinds, plan]) => {
          const drawn = [...kindsOf(plan)].filter((k) => !k.endsWith('none'));
          const allowed = new Set<string>(kinds);
          expect(drawn.every((k) => allowed.has(k))).toBe(true);
          if (kinds.some((k) => !k.includes('-')))
            expect(plan.query.some((f) => f.kind !== 'none')).toBe(true);
        },
      ),
      { seed: 14, numRuns: 200 },
    );
  });

  it('draws every kind when all are enabled', () => {
    const seen = new Set<string>();

    for (const plan of fc.sample(faultPlan(), { seed: 14, numRuns: 300 }))
      kindsOf(plan).forEach((k) => seen.add(k));

    const missing = FAULT_KINDS.filter((k: FaultKind) => !seen.has(k));
    expect(missing).toEqual([]);
  });

  it('draws no table lock unless asked (the SQLite world cannot play one)', () => {
    for (const plan of fc.sample(faultPlan(), { seed: 14, numRuns: 100 }))
      expect(plan.locks.every((f) => f.kind === 'none')).toBe(true);
  });

  it("draws table locks both shorter and longer than the lease, over one or more of the daemon's tables", () => {
    const locks = fc
      .sample(faultPlan([...FAULT_KINDS, ...POSTGRES_FAULT_KINDS]), { seed: 26, numRuns: 200 })
      .flatMap((plan) => plan.locks)
      .flatMap((f) => (f.kind === 'lock' ? [f] : []));

    expect(locks.some((f) => f.ms < LOCK_WORLD_LEASE_TTL_MS)).toBe(true);
    expect(locks.some((f) => f.ms > LOCK_WORLD_LEASE_TTL_MS)).toBe(true);
    expect(locks.some((f) => f.tables.length > 1)).toBe(true);
    expect(locks.every((f) => f.tables.length >= 1)).toBe(true);
  });
});

describe('retryAfterHeader', () => {
  const now = Date.UTC(2026, 10, 25, 12, 0, 0);
  it.each([
    [{ kind: 'none' } as const, undefined],
    [{ kind: 'seconds', value: 3 } as const, '3'],
    [{ kind: 'date', offsetS: 10 } as const, 'Wed, 25 Nov 2026 12:00:10 GMT'],
    [{ kind: 'garbage', text: 'soon' } as const, 'soon'],
    [{ kind: 'huge', value: '3600' } as const, '3600'],
  ])('%j → %s', (value, header) => {
    expect(retryAfterHeader(value, now)).toBe(header);
  });
});

describe('hostile records', () => {
  const template = { consensus_timestamp: '1.000000000', memo_base64: '', transfers: [] };

  it('reorders and duplicates without losing or inventing records', () => {
    fc.assert(
      fc.property(fc.array(fc.nat()), fc.nat(), fc.integer({ min: 2, max: 3 }), (records, seed, copies) => {
        const sorted = [...records].sort();

        expect([...reorder(records, 'shuffled', seed)].sort()).toEqual(sorted);
        expect(reorder(records, 'reversed', seed)).toEqual([...records].reverse());
        expect(duplicate(records, copies)).toHaveLength(records.length * copies);
      }),
      { seed: 14 },
    );
  });

  it('puts a future record years ahead, on the faulted account', () => {
    const record = futureRecord(template, '0.0.1001', Date.UTC(2026, 0, 1), 100);

    expect(Number(String(record.consensus_timestamp).split('.')[0])).toBeGreaterThan(
      Date.UTC(2125, 0, 1) / 1000,
    );
    expect(JSON.stringify(record.transfers)).toContain('0.0.1001');
  });

  it.each([0, 1, 2, 3, 4, 5])('malformed shape %i differs from a valid record', (shape) => {
    expect(malformedRecord(template, '0.0.1001', shape)).not.toEqual(template);
  });
});

describe('alertTally', () => {
  const expected = new Set(['chaos-0', 'chaos-1']);
  const msg = (...alerts: string[]) =>
    alerts.map((a) => `alert ${a.replace('@', ' account ')} end`).join('\n');

  it.each([
    [
      'each once',
      [msg('chaos-0@0.0.1001'), msg('chaos-1@0.0.1002')],
      { lost: [], duplicates: [], unexpected: [], stray: 0 },
    ],
    ['one lost', [msg('chaos-0@0.0.1001')], { lost: ['chaos-1'], duplicates: [], unexpected: [], stray: 0 }],
    [
      'one twice',
      [msg('chaos-0@0.0.1001'), msg('chaos-0@0.0.1001', 'chaos-1@0.0.1002')],
      { lost: [], duplicates: ['chaos-0@0.0.1001×2'], unexpected: [], stray: 0 },
    ],
    [
      'two accounts of one marker are two alerts',
      [msg('chaos-0@0.0.1001', 'chaos-0@0.0.1004'), msg('chaos-1@0.0.1002')],
      { lost: [], duplicates: [], unexpected: [], stray: 0 },
    ],
    [
      'unexpected and stray',
      [msg('chaos-0@0.0.1001', 'chaos-1@0.0.1002', 'chaos-9@0.0.1001'), 'hello'],
      { lost: [], duplicates: [], unexpected: ['chaos-9'], stray: 1 },
    ],
  ])('%s', (_name, bodies, tally) => {
    expect(alertTally(expected, bodies)).toEqual(tally);
  });

  it('reads alerts out of JSON-escaped bodies', () => {
    expect(alertsOf(JSON.stringify({ text: msg('chaos-3@0.0.1003') }))).toEqual(
      new Set(['chaos-3@0.0.1003']),
    );
  });
});
