// The rule engine's metrics: matches and alerts per rule.
import { Counter, Gauge, type Registry } from 'prom-client';
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
    tokenFactsFailures: new Counter({
      name: `${P}token_facts_failures_total`,
      help: "Reads of a token's facts (GET /api/v1/tokens/{id}) that gave no usable decimals, by reason: not_found (404), refused (a hostile decimals or symbol), error (the read failed). Its amounts are shown in raw units meanwhile.",
      labelNames: ['reason'],
      registers: r,
    }),
    tokenFactsCached: new Gauge({
      name: `${P}token_facts_cached`,
      help: 'Tokens whose facts the daemon holds: the configured ones and those met in alerting records (bounded).',
      registers: r,
    }),
  };
}
