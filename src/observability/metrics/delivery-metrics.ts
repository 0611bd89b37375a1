// Delivery's metrics: notifications, latency, dead letters, the outbox, silences, escalations.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { PREFIX as P } from './prefix.js';

/** Delivery: attempts, latency, the outbox, dead letters, resends and what was held back. */
export function deliveryMetrics(r: Registry[]) {
  return {
    notifications: new Counter({
      name: `${P}notifications_total`,
      help: 'Notification attempts by notifier, outcome (sent, retry, failed, dead, silenced) and reason.',
      labelNames: ['notifier', 'outcome', 'reason'],
      registers: r,
    }),
    deliveryLatency: new Histogram({
      name: `${P}consensus_to_delivered_seconds`,
      help: 'From the consensus timestamp of the record behind an alert to its delivery.',
      labelNames: ['notifier'],
      buckets: [0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300],
      registers: r,
    }),
    outboxDepth: new Gauge({
      name: `${P}outbox_depth`,
      help: 'Deliveries waiting in the outbox, by notifier.',
      labelNames: ['notifier'],
      registers: r,
    }),
    deadLetters: new Counter({
      name: `${P}dead_letters_total`,
      help: 'Deliveries given up after their deadline and moved to the dead-letter list.',
      labelNames: ['notifier'],
      registers: r,
    }),
    notificationResends: new Counter({
      name: `${P}notification_resends_total`,
      help: 'Firing alerts posted again to Alertmanager to keep them active (not new notifications), by notifier and outcome (sent, failed).',
      labelNames: ['notifier', 'outcome'],
      registers: r,
    }),
    silences: new Gauge({
      name: `${P}silences`,
      help: 'Silences made through the API, by state (active, pending, expired); config-file silences are not counted.',
      labelNames: ['state'],
      registers: r,
    }),
    escalations: new Counter({
      name: `${P}escalations_total`,
      help: 'Escalations of routes (escalate:): sent (enqueued to the escalation receivers) or stopped by an ack before their time.',
      labelNames: ['outcome'],
      registers: r,
    }),
    heartbeats: new Counter({
      name: `${P}heartbeats_total`,
      help: 'Heartbeat pings (heartbeat:) by outcome: ok, fail (the /fail ping of an unhealthy daemon), skipped (unhealthy, no ping), error (the ping failed).',
      labelNames: ['outcome'],
      registers: r,
    }),
    alertsSilenced: new Counter({
      name: `${P}alerts_silenced_total`,
      help: 'Deliveries held back by an API silence, an inhibition rule or an acknowledgement, by reason (silence, inhibited, ack).',
      labelNames: ['reason'],
      registers: r,
    }),
  };
}
