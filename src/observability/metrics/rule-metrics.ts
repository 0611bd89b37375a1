// The rule engine's metrics: matches and alerts per rule.
import { Counter, type Registry } from 'prom-client';
import { PREFIX as P } from './prefix.js';

/** The rule engine: matches and alert transitions per rule. */
export function ruleMetrics(r: Registry[]) {
  return {
    ruleMatches: new Counter({
      name: `${P}rule_matches_total`,
      help: 'Records that matched a rule condition, by rule.',
      labelNames: ['rule'],
      registers: r,
    }),
    alerts: new Counter({
      name: `${P}alerts_total`,
      help: 'Alert transitions emitted, by rule, severity and status.',
      labelNames: ['rule', 'severity', 'status'],
      registers: r,
    }),
  };
}
