// What holds a delivery back besides the config's silences: API silences, user inhibition rules and acks. The
// delivery pass asks begin(now) once per pass, then check() per due row; a suppressed row is recorded as silenced
// (and counted by reason), never sent later — as in Alertmanager, a silence that ends lets the alert's next
// notification (a repeat, a reminder, the resolve) through, not the ones it held back.
import type { Metrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert/alert.js';
import type { StateStore } from '../state/store.js';
import type { AckStore } from './ack-store.js';
import {
  compileInhibitRules,
  findInhibitor,
  type CompiledInhibitRule,
  type InhibitRule,
} from './inhibit-rules.js';
import { allMatch, compileMatchers, isErrors } from './matchers.js';
import type { SilenceStore } from './silence-store.js';

export type SuppressionReason = 'silence' | 'inhibited' | 'ack';

export interface Suppressed {
  readonly reason: SuppressionReason;
  /** The silence id, the inhibiting alert's key, or who acked. */
  readonly by: string;
}

export interface Screen {
  check(alert: Alert): Suppressed | undefined;
  /** The alert as sent: an acked one names its ack (annotation `acknowledged`). */
  annotate(alert: Alert): Alert;
}

export interface Suppression {
  begin(now: number): Screen;
  /** A reload: the new config's inhibition rules. */
  setInhibitRules(rules: readonly InhibitRule[]): void;
  /** Active API silences matching the alert at `now` (their ids). */
  silencedBy(alert: Alert, now: number): string[];
}

export interface SuppressionDeps {
  readonly store: StateStore;
  readonly silences: SilenceStore;
  readonly acks: AckStore;
  readonly metrics: Pick<Metrics, 'silences' | 'alertsSilenced'>;
  readonly inhibitRules?: readonly InhibitRule[];
}

/** Source alerts considered for inhibition: the firing ones that will resolve (delivery/firing-set.ts). */
const MAX_SOURCES = 10_000;

export function createSuppression(deps: SuppressionDeps): Suppression {
  let rules: CompiledInhibitRule[] = compileInhibitRules(deps.inhibitRules ?? []);
  const firing = deps.store.db.prepare('SELECT alert_json FROM outbox_firing LIMIT ?');
  const activeSilences = (now: number) =>
    deps.silences.active(now).flatMap((s) => {
      const compiled = compileMatchers(s.matchers);
      // Stored matchers were compiled when the silence was made; one that no longer compiles matches nothing.
      return isErrors(compiled) ? [] : [{ id: s.id, matchers: compiled }];
    });
  return {
    begin(now) {
      const counts = deps.silences.counts(now);
      for (const state of ['active', 'pending', 'expired'] as const)
        deps.metrics.silences.set({ state }, counts[state]);
      const silences = activeSilences(now);
      const sources =
        rules.length === 0
          ? []
          : (firing.all(MAX_SOURCES) as { alert_json: string }[]).map(
              (r) => JSON.parse(r.alert_json) as Alert,
            );
      const count = (s: Suppressed) => (deps.metrics.alertsSilenced.inc({ reason: s.reason }), s);
      return {
        check(alert) {
          const silence = silences.find((s) => allMatch(s.matchers, alert));
          if (silence) return count({ reason: 'silence', by: silence.id });
          const inhibitor = findInhibitor(rules, sources, alert);
          if (inhibitor) return count({ reason: 'inhibited', by: inhibitor.source.key });
          const ack = alert.status === 'firing' ? deps.acks.covering(alert, now) : undefined;
          return ack ? count({ reason: 'ack', by: ack.by }) : undefined;
        },
        annotate(alert) {
          const ack = deps.acks.covering(alert, now);
          if (!ack) return alert;
          const text = `by ${ack.by}${ack.comment ? `: ${ack.comment}` : ''}`;
          return { ...alert, annotations: { ...alert.annotations, acknowledged: text } };
        },
      };
    },
    setInhibitRules(next) {
      rules = compileInhibitRules(next);
    },
    silencedBy(alert, now) {
      return activeSilences(now)
        .filter((s) => allMatch(s.matchers, alert))
        .map((s) => s.id);
    },
  };
}
