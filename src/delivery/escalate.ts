// The escalation check, run on the daemon's tick: every step whose time has come (escalation-store.ts) is either
// stopped (the alert was acknowledged, or its episode is over) or enqueued in the outbox for the step's receivers,
// as a copy of the alert that says it is an escalation. One transaction per check: the outbox rows and the
// step's end commit together, so an escalation is enqueued exactly once across crashes and failovers, and the
// outbox's own guarantees (retries, silences, exactly-once per channel) carry it from there.
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Alert } from '../rules/alert/alert.js';
import type { StateStore } from '../state/store.js';
import type { AckStore } from './ack-store.js';
import type { EscalationStep } from './escalation-store.js';
import { episodeId } from './firing-set.js';
import type { Outbox } from './outbox.js';

export interface EscalateDeps {
  readonly store: Pick<StateStore, 'transaction'>;
  readonly outbox: Outbox;
  readonly acks: Pick<AckStore, 'covering'>;
  readonly now: () => number;
  readonly metrics: Pick<Metrics, 'escalations'>;
  readonly log: Logger;
}

/** Steps handled per check: a backlog (after a long outage) drains over the next ticks. */
export const MAX_ESCALATIONS_PER_CHECK = 200;

/** Runs the due escalations; returns how many were enqueued (the caller pokes the delivery worker). */
export function escalateDue(deps: EscalateDeps, limit = MAX_ESCALATIONS_PER_CHECK): number {
  const now = deps.now();
  const { outbox } = deps;
  const outcomes = deps.store.transaction(() =>
    outbox.escalations.due(now, limit).map((step) => {
      const outcome = decide(deps, step, now);
      if (outcome !== 'sent') outbox.escalations.drop(step);
      else {
        outbox.enqueue(escalatedAlert(step), step.channels, { copy: true });
        outbox.escalations.sent(step, now);
      }
      return { step, outcome };
    }),
  );
  let sent = 0;
  for (const { step, outcome } of outcomes) {
    const fields = { key: step.key, notifiers: step.channels, after: formatDelay(step.afterMs) };
    if (outcome === 'sent') {
      sent++;
      deps.metrics.escalations.inc({ outcome: 'sent' });
      deps.log.warn(fields, 'alert not acknowledged in time: escalated');
    } else if (outcome === 'acked') {
      deps.metrics.escalations.inc({ outcome: 'acked' });
      deps.log.info(fields, 'escalation stopped: the alert was acknowledged');
    } else deps.log.info(fields, 'escalation dropped: the alert no longer fires');
  }
  return sent;
}

function decide(deps: EscalateDeps, step: EscalationStep, now: number): 'sent' | 'acked' | 'gone' {
  const { alert } = step;
  // A resolve ends the steps itself; this catches an episode whose state was dropped without one.
  if (alert.resolves && deps.outbox.firing.episode(alert.key) !== episodeId(alert)) return 'gone';
  return deps.acks.covering(alert, now) ? 'acked' : 'sent';
}

/** The alert as the escalation receivers see it: the same key and episode, a new id, saying why it came. */
export function escalatedAlert(step: EscalationStep): Alert {
  const { alert } = step;
  const delay = formatDelay(step.afterMs);
  return {
    ...alert,
    id: `${alert.id}|escalation-${step.step}`,
    summary: `ESCALATED (not acknowledged for ${delay}): ${alert.summary}`,
    annotations: { ...alert.annotations, escalation: `not acknowledged for ${delay}` },
  };
}

export function formatDelay(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000}d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.round(ms / 1000)}s`;
}
