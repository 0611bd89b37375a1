// Self-monitoring conditions for records the tailers could not read (tail/quarantine/quarantine-store.ts): each one kept in
// quarantine is an alert naming the record and the field, firing until it is released from quarantine
// (`ledger-sentinel quarantine rm`). No rule ran on such a record, so this alert is the only one it gets.
import type { AlertAccount } from '../rules/alert/alert.js';
import type { QuarantinedRecord } from '../tail/quarantine/quarantine-store.js';
import type { WatchedAccount } from '../accounts/watched-account.js';
import { BUILT_IN_RULES, type Condition } from './built-in-alerts.js';

/** Records with an alert of their own, oldest first; the rest are summed up in one more alert. */
export const MAX_QUARANTINE_ALERTS = 20;

export interface QuarantineView {
  /** The oldest MAX_QUARANTINE_ALERTS records. */
  readonly records: readonly QuarantinedRecord[];
  readonly total: number;
}

export function quarantineConditions(view: QuarantineView, accounts: readonly WatchedAccount[]): Condition[] {
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const out: Condition[] = view.records.slice(0, MAX_QUARANTINE_ALERTS).map((r) => {
    const account = r.accounts.map((id) => byId.get(id)).find((a) => a !== undefined);
    const record = `${shown(r.timestamp) || 'without a readable timestamp'}${r.transactionId ? ` (${shown(r.transactionId)})` : ''}`;
    const whose = account ? ` of ${account.name}` : '';
    return {
      key: `${BUILT_IN_RULES.recordQuarantined}|${r.stream}|${r.key}`,
      ruleId: BUILT_IN_RULES.recordQuarantined,
      severity: 'warning' as const,
      summary: `Ledger record ${record}${whose} could not be read`,
      description:
        `Field ${shown(r.field) || '(record)'} at ${shown(r.path)}: ${shown(r.reason, 200)}. No rule ran on it; ` +
        'it is kept in quarantine: ledger-sentinel quarantine ls, then quarantine rm once reviewed.',
      ...(account ? { account: accountOf(account) } : {}),
    };
  });
  const more = view.total - out.length;
  if (more > 0)
    out.push({
      key: `${BUILT_IN_RULES.recordQuarantined}|more`,
      ruleId: BUILT_IN_RULES.recordQuarantined,
      severity: 'warning',
      summary: `${more} more ledger records could not be read`,
      description: `${view.total} records are in quarantine in all; ledger-sentinel quarantine ls lists them.`,
    });
  return out;
}

function accountOf(account: WatchedAccount): AlertAccount {
  return { id: account.id, name: account.name, labels: account.labels };
}

/** Service text in an alert: only characters that cannot format, mention or link, and bounded. */
function shown(text: string | null, max = 100): string {
  return (text ?? '').slice(0, max).replace(/[^\w.,:\-[\] ]/g, '?');
}
