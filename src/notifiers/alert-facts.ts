// An alert's facts as flat text pairs, for receivers that show a key/value table (PagerDuty `custom_details`,
// Opsgenie `details`). Pure; give it a presented alert (present.ts), so every value is neutralised and capped.
// Label and annotation names are prefixed (`label.team`), so no name — `__proto__` included — can clash with a
// fact or reach an object's prototype.
import type { Alert } from '../rules/alert/alert.js';
import { accountLabel, formatAmount, formatConsensusTime, triggerRecord } from './format.js';

export function alertFacts(alert: Alert): Record<string, string> {
  const facts = new Map<string, string>();
  const put = (key: string, value: string | undefined) => {
    if (value !== undefined && value !== '') facts.set(key, value);
  };
  put('rule', alert.ruleId);
  put('severity', alert.severity);
  put('status', alert.status);
  put('account', accountLabel(alert));
  const record = triggerRecord(alert);
  if (record) {
    put('amount', record.amountTinybar === undefined ? undefined : formatAmount(record.amountTinybar));
    put('transaction_id', record.transactionId);
    put('type', record.type);
    put('result', record.result);
    put('consensus_time', formatConsensusTime(record.consensusTimestamp));
    put('fee', record.feeTinybar === undefined ? undefined : formatAmount(record.feeTinybar));
    put('memo', record.memo);
    put('explorer_url', record.explorerUrl);
  }
  put('why', alert.why);
  put('resolution', alert.status === 'resolved' ? alert.resolution : undefined);
  put('match_count', alert.matchCount > 1 ? String(alert.matchCount) : undefined);
  put('started_at', alert.startsAt);
  put('resolved_at', alert.status === 'resolved' ? alert.endsAt : undefined);
  put('account_url', alert.accountUrl);
  for (const [name, value] of Object.entries(alert.labels)) put(`label.${name}`, value);
  for (const [name, value] of Object.entries(alert.annotations)) put(`annotation.${name}`, value);
  put('alert_key', alert.key);
  put('alert_id', alert.id);
  return Object.fromEntries(facts);
}
