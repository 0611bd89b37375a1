// Status page inputs of a given size, for tests and bench 5 (not part of the runtime).
import { testAlert } from './alerts.js';
import { alertFingerprint, type AlertEntry } from '../../src/delivery/alert-view.js';
import type { Alert } from '../../src/rules/alert/alert.js';
import type { StatusInputs } from '../../src/status/status-model.js';

export const SAMPLE_NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

export interface SampleOptions {
  readonly streams?: number;
  readonly rules?: number;
  readonly firing?: number;
  /** Put into every ledger-controlled text field (memo, summary, account name, key, label value). */
  readonly text?: string;
}

export function sampleStatusInputs(options: SampleOptions = {}): StatusInputs {
  const { streams = 3, rules = 2, firing = 1, text = 'payroll' } = options;
  const alert = (i: number): Alert => sampleAlert(i, rules, text);
  return {
    now: SAMPLE_NOW,
    version: '1.2.3',
    startedAt: SAMPLE_NOW - 3_600_000,
    checks: {
      poll: { ok: true, message: 'first poll done' },
      query_service: { ok: true, message: 'answered 1 s ago' },
    },
    lagSeconds: 2.5,
    strategy: 'per-account',
    streams: Array.from({ length: streams }, (_, i) => ({
      account: `0.0.${1000 + i}`,
      source: i % 2 === 0 ? 'transactions' : 'rewards',
      seconds: (i * 7919) % 3600,
    })),
    streamsPage: 1,
    accountNames: new Map([['0.0.1000', text]]),
    alerts: Array.from({ length: firing }, (_, i) =>
      alertEntry(alert(i), i % rules === 0 ? ['config:0'] : []),
    ),
    silences: [sampleSilence(text)],
    rules: Array.from({ length: rules }, (_, i) => ({
      id: `rule-${i}`,
      severity: 'critical' as const,
      source: 'transactions',
    })),
    ruleActivity: new Map([['rule-0', { matches: 3, lastMatchAt: SAMPLE_NOW - 60_000 }]]),
    notifiers: [
      {
        name: 'ops-slack',
        kind: 'slack',
        depth: 2,
        lastError: { message: text, at: SAMPLE_NOW, state: 'retrying' },
      },
      { name: 'pager', kind: 'webhook', depth: 0, pausedUntil: SAMPLE_NOW + 30_000 },
    ],
  };
}

/** An alert as the alert view lists it (delivery/alert-view.ts): resolving, firing, silenced by `silencedBy`. */
export function alertEntry(
  alert: Alert,
  silencedBy: string[] = [],
  overrides: Partial<AlertEntry> = {},
): AlertEntry {
  return {
    id: alertFingerprint(alert.key),
    key: alert.key,
    rule: alert.ruleId,
    severity: alert.severity,
    state: alert.status,
    resolves: true,
    summary: alert.summary,
    ...(alert.account ? { account: alert.account } : {}),
    labels: alert.labels,
    startsAt: alert.startsAt,
    firstSeen: alert.startsAt,
    lastSeen: alert.startsAt,
    latestId: alert.id,
    matchCount: alert.matchCount,
    records: alert.records,
    silencedBy,
    ...overrides,
  };
}

/** Firing alert number `i`, spread over `rules` rules, with `text` in every ledger-controlled field. */
function sampleAlert(i: number, rules: number, text: string): Alert {
  return testAlert(
    {
      key: `rule-${i % rules}/${text}`,
      ruleId: `rule-${i % rules}`,
      summary: `Large debit: ${text}`,
      account: { id: `0.0.${1000 + i}`, name: text, labels: { team: text } },
      labels: { team: text },
      records: [{ kind: 'transaction', consensusTimestamp: '1764072000.000000001', memo: text }],
    },
    i + 1,
  );
}

/** A read-only silence from the config file, with `text` as its comment. */
function sampleSilence(text: string): StatusInputs['silences'][number] {
  return {
    id: 'config-1',
    matchers: [
      { name: 'rule', value: 'rule-0' },
      { name: 'notifier', value: 'ops-slack' },
    ],
    startsAt: '',
    endsAt: new Date(SAMPLE_NOW + 3_600_000).toISOString(),
    createdBy: 'config file',
    comment: text,
    readOnly: true,
  };
}
