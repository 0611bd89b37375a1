import { describe, expect, it } from 'vitest';
import { testAlert } from '../../test/helpers/alerts.js';
import { buildStatusModel, STREAMS_PER_PAGE, streamsPage } from './status-model.js';
import { configSilences, silenceFor, silenceState } from './status-silence.js';
import { SAMPLE_NOW, alertEntry, sampleStatusInputs } from '../../test/helpers/sample-inputs.js';
import type { AlertEntry } from '../delivery/alert-view.js';
import { renderStatusPage } from './render-status.js';
import { parseFilter } from './status-filter.js';

const streams = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ account: `0.0.${1000 + i}`, source: 'transactions', seconds: i }));

describe('status model', () => {
  it.each([
    [1, 1, 10_000],
    [2, 51, 9_950],
    [200, 9_951, 50],
    [201, 9_951, 50],
    [0, 1, 10_000],
    [-3, 1, 10_000],
    [Number.NaN, 1, 10_000],
  ])('pages 10,000 streams stalest first: page %d starts at rank %d (%d s)', (page, first, seconds) => {
    const model = streamsPage(streams(10_000), page);

    expect(model.pages).toBe(200);
    expect(model.first).toBe(first);
    expect(model.rows).toHaveLength(STREAMS_PER_PAGE);
    expect(model.rows[0]?.seconds).toBe(seconds - 1);
    expect(model.summary).toEqual({ streams: 10_000, p50: 4999, p99: 9899, max: 9999 });
  });

  it('has one empty page without streams', () => {
    expect(streamsPage([], 3)).toMatchObject({
      page: 1,
      pages: 1,
      rows: [],
      summary: { streams: 0, max: 0 },
    });
  });

  it('is ready only when every check is ok', () => {
    const inputs = sampleStatusInputs();
    const failing = { ...inputs, checks: { ...inputs.checks, state: { ok: false, message: 'closed' } } };

    expect(buildStatusModel(inputs).ready).toBe(true);
    expect(buildStatusModel(failing).ready).toBe(false);
  });

  const entry = (overrides: Parameters<typeof testAlert>[0], extra: Partial<AlertEntry> = {}) =>
    alertEntry(testAlert(overrides), [], extra);

  it('lists critical alerts first, then by start', () => {
    const alerts = [
      entry({ key: 'b', severity: 'warning', startsAt: '2026-01-01T00:00:00Z' }),
      entry({ key: 'c', severity: 'critical', startsAt: '2026-01-02T00:00:00Z' }),
      entry({ key: 'a', severity: 'critical', startsAt: '2026-01-01T00:00:00Z' }),
    ];

    const model = buildStatusModel({ ...sampleStatusInputs(), alerts });

    expect(model.alerts.firing.rows.map((r) => r.key)).toEqual(['a', 'c', 'b']);
  });

  it('derives firing now and the history from one list: they cannot disagree', () => {
    const alerts = [
      entry({ key: 'windowed/fires' }, { lastSeen: '2026-11-25T11:00:00Z' }),
      entry(
        { key: 'windowed/ended', status: 'resolved' },
        { state: 'resolved', lastSeen: '2026-11-25T11:30:00Z' },
      ),
      entry({ key: 'per-record/x' }, { resolves: false, lastSeen: '2026-11-25T11:50:00Z' }),
    ];

    const model = buildStatusModel({ ...sampleStatusInputs(), alerts });

    expect(model.alerts.firing.rows.map((r) => r.key)).toEqual(['windowed/fires']);
    expect(model.alerts.history.rows.map((r) => [r.key, r.state])).toEqual([
      ['per-record/x', 'one-shot'],
      ['windowed/ended', 'resolved'],
      ['windowed/fires', 'firing'],
    ]);
    expect(model.alerts.counts).toEqual({ firing: 1, oneShot: 1, resolved: 1 });
    const html = renderStatusPage(model);
    expect(html).not.toContain('no alert is firing');
  });

  it('shows no silence and no ack on a resolved alert (a silence made after it resolved never held it)', () => {
    const acknowledgedBy = { by: 'alice', comment: 'looking', at: '2026-11-25T11:00:00Z' };
    const resolved = entry({ ruleId: 'rule-0', status: 'resolved' }, { state: 'resolved', acknowledgedBy });
    resolved.silencedBy.push('config:0');

    const [row] = buildStatusModel({ ...sampleStatusInputs(), alerts: [resolved] }).alerts.history.rows;

    expect(row?.state).toBe('resolved');
    expect(row?.silencedBy).toBeUndefined();
    expect(row?.ack).toBeUndefined();
  });

  it('shows which silence holds an alert back, on which notifiers, and its acknowledgement', () => {
    const acknowledgedBy = { by: 'alice', comment: 'looking', at: '2026-11-25T11:00:00Z' };
    const alert = alertEntry(testAlert({ ruleId: 'rule-0', key: 'rule-0/x' }), ['config:0'], {
      acknowledgedBy,
    });

    const [row] = buildStatusModel({ ...sampleStatusInputs(), alerts: [alert] }).alerts.firing.rows;

    expect(row?.silencedBy).toEqual({ id: 'config-1', comment: 'payroll', notifiers: ['ops-slack'] });
    expect(row?.ack).toEqual({ by: 'alice', comment: 'looking', at: '2026-11-25T11:00:00Z' });
    expect(row?.matchers).toBe('rule="rule-0"\naccount="0.0.1234"');
  });

  it.each([
    ['?severity=warning', ['w']],
    ['?rule=other', ['o']],
    ['?account=treasury-hot', ['c', 'w']],
    ['?account=0.0.9', ['o']],
    ['?state=resolved', ['o']],
    ['?state=firing&severity=critical', ['c']],
    ['?rule=constructor', []],
    ['?account=__proto__', []],
    ['?account=toString&rule=hasOwnProperty', []],
    ['?severity=constructor', ['c', 'w', 'o']],
    ['?state=__proto__', ['c', 'w', 'o']],
  ])('filters %s by own values only', (query, keys) => {
    const alerts = [
      entry({ key: 'c' }),
      entry({ key: 'w', severity: 'warning' }),
      entry(
        { key: 'o', ruleId: 'other', account: { id: '0.0.9', name: 'o', labels: {} } },
        { rule: 'other', state: 'resolved' },
      ),
    ];
    const filter = parseFilter(new URLSearchParams(query));

    const model = buildStatusModel({ ...sampleStatusInputs(), alerts, filter });

    expect(model.alerts.history.rows.map((r) => r.key).sort()).toEqual([...keys].sort());
  });

  it('neutralises and caps ledger text (bidi overrides, control characters, huge memos)', () => {
    const memo = `\u202Egnp.exe\u0000${'x'.repeat(10_000)}`;
    const alert = entry({ records: [{ kind: 'transaction', consensusTimestamp: '1.0', memo }] });

    const [row] = buildStatusModel({ ...sampleStatusInputs(), alerts: [alert] }).alerts.firing.rows;

    expect(row?.memo.startsWith('\\u{202E}gnp.exe\\u{0}')).toBe(true);
    expect(row?.memo.length).toBeLessThan(400);
  });

  it('orders rules by their last match, never-matched ones last', () => {
    const inputs = sampleStatusInputs({ rules: 3 });
    const ruleActivity = new Map([
      ['rule-2', { matches: 1, lastMatchAt: SAMPLE_NOW - 10 }],
      ['rule-1', { matches: 5, lastMatchAt: SAMPLE_NOW - 1000 }],
    ]);

    const model = buildStatusModel({ ...inputs, ruleActivity });

    expect(model.rules.map((r) => [r.id, r.matches])).toEqual([
      ['rule-2', 1],
      ['rule-1', 5],
      ['rule-0', 0],
    ]);
  });
});

describe('silences on the status page', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const [silence] = configSilences([
    {
      rule: 'large-debit',
      account: 'treasury-hot',
      labels: { team: 'treasury' },
      notifiers: ['ops'],
      starts_at: '2026-11-25T11:00:00Z',
      ends_at: '2026-11-25T13:00:00Z',
      comment: 'maintenance',
    },
  ]);

  it('turns a config silence into matchers, read-only', () => {
    expect(silence).toEqual({
      id: 'config-1',
      matchers: [
        { name: 'rule', value: 'large-debit' },
        { name: 'account', value: 'treasury-hot' },
        { name: 'team', value: 'treasury' },
        { name: 'notifier', value: 'ops' },
      ],
      startsAt: '2026-11-25T11:00:00Z',
      endsAt: '2026-11-25T13:00:00Z',
      createdBy: 'config file',
      comment: 'maintenance',
      readOnly: true,
    });
  });

  it.each([
    ['2026-11-25T10:00:00Z', 'pending'],
    ['2026-11-25T12:00:00Z', 'active'],
    ['2026-11-25T13:00:00Z', 'expired'],
  ] as const)('at %s is %s', (at, state) => {
    expect(silence && silenceState(silence, Date.parse(at))).toBe(state);
  });

  it.each([
    [{}, true],
    [{ ruleId: 'other' }, false],
    [{ account: { id: '0.0.1234', name: 'other', labels: { team: 'treasury' } } }, false],
    [{ account: { id: 'treasury-hot', name: 'x', labels: {} }, labels: { team: 'treasury' } }, true],
    [{ labels: { team: 'ops' }, account: { id: '0.0.1', name: 'treasury-hot', labels: {} } }, false],
  ])('matches an alert like the delivery worker does (%j → %s)', (overrides, expected) => {
    const alert = testAlert(overrides);

    expect(silenceFor(alert, silence ? [silence] : [], now) !== undefined).toBe(expected);
  });

  it.each([
    [{ name: 'rule', op: '=~', value: 'large-.*' }, true],
    [{ name: 'rule', op: '!=', value: 'large-debit' }, false],
    [{ name: 'severity', op: '!~', value: 'info|warning' }, true],
  ] as const)('an API silence with operator %j matches: %s', (matcher, expected) => {
    const api = { ...silence!, id: 'api-1', matchers: [matcher], readOnly: false };

    expect(silenceFor(testAlert({}), [api], now)?.id === 'api-1').toBe(expected);
  });
});
