// Silences as the status page shows them, whatever their origin: the config file's `silences:` today, runtime
// silences from the state store later (they are passed in as the same plain shape). A matcher is an equality on
// `rule`, `account` (id or name), `notifier` (only on that notifier) or any other name = a label of the alert
// or its account: the semantics of the delivery worker's findSilence (src/delivery/route.ts).
import { compileMatcher, type MatchOp } from '../delivery/matchers.js';
import type { Silence } from '../notifiers/schema.js';
import type { Alert } from '../rules/alert/alert.js';
import { labelValue } from '../config/labels.js';

export interface SilenceMatcher {
  readonly name: string;
  /** `=` when absent (config-file silences); API silences may use any of Alertmanager's operators. */
  readonly op?: MatchOp;
  readonly value: string;
}

export interface StatusSilence {
  readonly id: string;
  readonly matchers: readonly SilenceMatcher[];
  /** ISO 8601; '' = from the start. */
  readonly startsAt: string;
  readonly endsAt: string;
  readonly createdBy: string;
  readonly comment: string;
  /** Defined in the config file: changed by editing it, not at runtime. */
  readonly readOnly: boolean;
}

export type SilenceState = 'active' | 'pending' | 'expired';

/** The config file's silences, numbered in file order (`config-1` is the first). */
export function configSilences(silences: readonly Silence[]): StatusSilence[] {
  return silences.map((s, i) => ({
    id: `config-${i + 1}`,
    matchers: [
      ...(s.rule !== undefined ? [{ name: 'rule', value: s.rule }] : []),
      ...(s.account !== undefined ? [{ name: 'account', value: s.account }] : []),
      ...Object.entries(s.labels ?? {}).map(([name, value]) => ({ name, value })),
      ...(s.notifiers ?? []).map((value) => ({ name: 'notifier', value })),
    ],
    startsAt: s.starts_at ?? '',
    endsAt: s.ends_at,
    createdBy: 'config file',
    comment: s.comment,
    readOnly: true,
  }));
}

export function silenceState(silence: StatusSilence, now: number): SilenceState {
  if (silence.startsAt !== '' && Date.parse(silence.startsAt) > now) return 'pending';
  return Date.parse(silence.endsAt) > now ? 'active' : 'expired';
}

/** The first active silence that holds the alert back on at least one notifier. */
export function silenceFor(
  alert: Alert,
  silences: readonly StatusSilence[],
  now: number,
): StatusSilence | undefined {
  return silences.find(
    (s) => silenceState(s, now) === 'active' && s.matchers.every((m) => matches(m, alert)),
  );
}

function matches(matcher: SilenceMatcher, alert: Alert): boolean {
  if (matcher.name === 'notifier') return true; // which notifiers: shown with the silence, not a property of the alert
  if (matcher.op !== undefined && matcher.op !== '=') {
    const compiled = compileMatcher({ name: matcher.name, op: matcher.op, value: matcher.value });
    return typeof compiled !== 'string' && compiled.test(alert);
  }
  if (matcher.name === 'rule') return alert.ruleId === matcher.value;
  if (matcher.name === 'account')
    return alert.account?.id === matcher.value || alert.account?.name === matcher.value;
  return labelValue(alert, matcher.name) === matcher.value; // own keys only: `constructor` is no label
}
