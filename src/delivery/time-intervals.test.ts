// Alertmanager's time interval semantics, table-driven: times of day (exclusive end), weekdays, days of the month
// (negative, clamped), months, years, IANA zones, both DST transitions; the next change of a mute; and the config
// errors a user sees (file:line:col and the fix).
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../config/config-error.js';
import { loadConfigFile } from '../config-file/load.js';
import { TimeIntervalSpec } from '../notifiers/time-intervals-config.js';
import { nextChange, specContains } from './time-intervals.js';

const spec = (raw: Record<string, unknown>) => TimeIntervalSpec.parse(raw);
const officeBerlin = spec({
  times: [{ start_time: '09:00', end_time: '17:00' }],
  weekdays: ['monday:friday'],
  location: 'Europe/Berlin',
});

const CASES: [string, TimeIntervalSpec, string, boolean][] = [
  ['09:00 CET on a Friday is inside', officeBerlin, '2026-03-27T08:00:00Z', true],
  ['08:59 CET is outside', officeBerlin, '2026-03-27T07:59:00Z', false],
  ['the end is exclusive (17:00 CET)', officeBerlin, '2026-03-27T16:00:00Z', false],
  ['16:59 CET is inside', officeBerlin, '2026-03-27T15:59:00Z', true],
  ['a Saturday is outside', officeBerlin, '2026-03-28T10:00:00Z', false],
  ['after spring forward, 09:00 CEST is 07:00 UTC', officeBerlin, '2026-03-30T07:00:00Z', true],
  ['after spring forward, 08:59 CEST is outside', officeBerlin, '2026-03-30T06:59:00Z', false],
  ['after fall back, 09:00 CET is 08:00 UTC', officeBerlin, '2026-10-26T08:00:00Z', true],
  ['after fall back, 07:30 UTC is 08:30 CET', officeBerlin, '2026-10-26T07:30:00Z', false],
  ...((): [string, TimeIntervalSpec, string, boolean][] => {
    const night = spec({ times: [{ start_time: '02:00', end_time: '03:00' }], location: 'Europe/Berlin' });
    return [
      ['the skipped hour never matches (01:59 CET)', night, '2026-03-29T00:59:00Z', false],
      ['the skipped hour never matches (03:00 CEST)', night, '2026-03-29T01:00:00Z', false],
      ['the repeated hour matches twice (02:30 CEST)', night, '2026-10-25T00:30:00Z', true],
      ['the repeated hour matches twice (02:30 CET)', night, '2026-10-25T01:30:00Z', true],
      ['03:00 CET after the repeat is outside', night, '2026-10-25T02:00:00Z', false],
    ];
  })(),
  ['-1 is the last day (Feb 2026)', spec({ days_of_month: ['-1'] }), '2026-02-28T12:00:00Z', true],
  ['-1 is not the day before', spec({ days_of_month: ['-1'] }), '2026-02-27T12:00:00Z', false],
  ['-1 in a leap year is the 29th', spec({ days_of_month: ['-1'] }), '2024-02-29T12:00:00Z', true],
  ['-3:-1 in April holds the 28th', spec({ days_of_month: ['-3:-1'] }), '2026-04-28T00:00:00Z', true],
  ['-3:-1 in April not the 27th', spec({ days_of_month: ['-3:-1'] }), '2026-04-27T23:59:00Z', false],
  ['31 never matches a 30-day month', spec({ days_of_month: ['31'] }), '2026-04-30T12:00:00Z', false],
  ['25:31 is clamped to the month', spec({ days_of_month: ['25:31'] }), '2026-02-28T12:00:00Z', true],
  ['5:-1 runs to the month end', spec({ days_of_month: ['5:-1'] }), '2026-04-30T12:00:00Z', true],
  ['5:-1 starts on the 5th', spec({ days_of_month: ['5:-1'] }), '2026-04-04T12:00:00Z', false],
  ['months by name', spec({ months: ['may:august'] }), '2026-06-15T00:00:00Z', true],
  ['months by number', spec({ months: ['9:12'] }), '2026-06-15T00:00:00Z', false],
  ['years in UTC', spec({ years: ['2026'] }), '2026-01-01T00:00:00Z', true],
  [
    'years in the location (still 2025 in New York)',
    spec({ years: ['2026'], location: 'America/New_York' }),
    '2026-01-01T00:00:00Z',
    false,
  ],
  [
    'a half-hour zone (00:00 IST)',
    spec({ times: [{ start_time: '00:00', end_time: '01:00' }], location: 'Asia/Kolkata' }),
    '2026-06-01T18:30:00Z',
    true,
  ],
  [
    'a half-hour zone (23:59 IST)',
    spec({ times: [{ start_time: '00:00', end_time: '01:00' }], location: 'Asia/Kolkata' }),
    '2026-06-01T18:29:00Z',
    false,
  ],
  [
    '24:00 ends the day',
    spec({ times: [{ start_time: '17:00', end_time: '24:00' }] }),
    '2026-06-01T23:59:00Z',
    true,
  ],
  [
    'weekday names are case-insensitive',
    spec({ weekdays: ['SATURDAY', 'Sunday'] }),
    '2026-03-29T12:00:00Z',
    true,
  ],
];

describe('time intervals (Alertmanager semantics)', () => {
  it.each(CASES)('%s', (_name, s, at, expected) => {
    expect(specContains(s, Date.parse(at))).toBe(expected);
  });

  it.each([
    ['inside office hours: the end of the day', '2026-03-27T15:00:00Z', '2026-03-27T16:00:00Z'],
    [
      'Friday evening: Monday 09:00, after the spring-forward',
      '2026-03-27T16:00:00Z',
      '2026-03-30T07:00:00Z',
    ],
    ['Saturday during fall back weekend: Monday 09:00 CET', '2026-10-24T12:00:00Z', '2026-10-26T08:00:00Z'],
  ])('next change, %s', (_name, from, expected) => {
    const inside = (t: number) => specContains(officeBerlin, t);
    const next = nextChange([officeBerlin], inside, Date.parse(from));
    expect(new Date(next ?? 0).toISOString()).toBe(new Date(expected).toISOString());
  });
});

const BASE =
  'ledger:\n  base_url: https://mainnet.mirrornode.hedera.com\nnotifiers:\n  ops: { kind: console }\n';

function errorsOf(yaml: string): string[] {
  const result = loadConfigFile('c.yaml', { env: {}, readFile: () => BASE + yaml, offline: true });
  return result.ok ? [] : result.issues.map((i) => formatIssue(i));
}

describe('time_intervals config errors', () => {
  it('points at a bad time of day and says what is expected', () => {
    const errors = errorsOf(
      [
        'time_intervals:',
        '  - name: night',
        '    time_intervals:',
        "      - times: [{start_time: '25:00', end_time: '26:00'}]",
      ].join('\n'),
    );
    expect(errors[0]).toMatch(
      /^c\.yaml:8:\d+ time_intervals\.0\.time_intervals\.0\.times\.0\.start_time: expected a time of day "HH:MM" from "00:00" to "24:00" \(e\.g\. "09:00"\), got "25:00"/,
    );
  });

  it('refuses an unknown zone, a bad weekday, a reversed range and an unknown interval name', () => {
    const errors = errorsOf(
      [
        'time_intervals:',
        '  - name: office',
        '    time_intervals:',
        "      - { weekdays: ['funday'], location: Mars/Olympus }",
        "      - { days_of_month: ['5:1', '30:-1'], weekdays: ['saturday:sunday'] }",
      ].join('\n'),
    );
    const unknown = errorsOf(
      [
        'time_intervals:',
        '  - { name: office, time_intervals: [{ weekdays: [monday:friday] }] }',
        'routes:',
        '  - notify: [ops]',
        '    mute_time_intervals: [ofice]',
      ].join('\n'),
    );
    expect(errors.join('\n')).toContain(
      'expected a weekday or a range of them like "monday:friday", got "funday"',
    );
    expect(errors.join('\n')).toContain('expected an IANA time zone like "Europe/Zurich"');
    expect(errors.join('\n')).toContain('the range "5:1" ends before it starts');
    expect(errors.join('\n')).toContain('the range "saturday:sunday" ends before it starts');
    expect(errors.join('\n')).toContain('the range "30:-1" ends before it starts in some months');
    expect(unknown.join('\n')).toMatch(
      /c\.yaml:9:\d+ routes\.0\.mute_time_intervals\.0: unknown time interval "ofice"; declared time intervals: office/,
    );
  });

  it('refuses an escalation to an unknown notifier', () => {
    const errors = errorsOf(
      ['routes:', '  - notify: [ops]', '    escalate:', '      - { after: 10m, notify: [pagr] }'].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringMatching(
        /^c\.yaml:8:\d+ routes\.0\.escalate\.0\.notify\.0: unknown notifier "pagr"; configured notifiers: ops/,
      ),
    ]);
  });
});
