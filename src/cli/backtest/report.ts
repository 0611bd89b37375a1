// What a backtest prints (pure): one line per alert that would have fired, then a per-rule table.
import { parseTimestamp, timestampToIso } from '@ledger-sentinel/ledger-model/timestamp';
import type { Alert } from '../../rules/alert/alert.js';

export interface RuleSummary {
  readonly rule: string;
  readonly firing: number;
  readonly resolved: number;
  readonly accounts: number;
}

/**
 * One line per transition, at the time it happened: the record that caused it (the newest of a window, not the
 * oldest it lists), else the resolve or start time; so lines come out in time order.
 */
export function alertLine(alert: Alert): string {
  const newest = alert.status === 'firing' ? alert.records.at(-1) : undefined;
  const at = (alert.trigger ?? newest)?.consensusTimestamp;
  const when = at
    ? timestampToIso(parseTimestamp(at))
    : alert.status === 'resolved'
      ? (alert.endsAt ?? alert.startsAt)
      : alert.startsAt;
  const who = alert.account ? `${alert.account.name} (${alert.account.id})` : '-';
  // eslint-disable-next-line no-control-regex -- ledger text must not move the cursor
  const summary = alert.summary.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  const said = alert.status === 'resolved' && alert.resolution ? `${summary} — ${alert.resolution}` : summary;
  const why = alert.status === 'firing' && alert.why ? ` (${alert.why})` : '';
  // eslint-disable-next-line no-control-regex -- ledger text must not move the cursor
  const text = `${said}${why}`.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');
  return `${when} ${alert.severity.toUpperCase().padEnd(8)} ${alert.status.padEnd(8)} ${alert.ruleId} ${who}: ${text}`;
}

/** Every rule of the set, in order, with its counts (rules that would never have fired show zeros). */
export function summarize(alerts: readonly Alert[], ruleIds: readonly string[]): RuleSummary[] {
  return ruleIds.map((rule) => {
    const own = alerts.filter((a) => a.ruleId === rule);
    return {
      rule,
      firing: own.filter((a) => a.status === 'firing').length,
      resolved: own.filter((a) => a.status === 'resolved').length,
      accounts: new Set(own.map((a) => a.account?.id ?? '')).size,
    };
  });
}

export function summaryTable(rows: readonly RuleSummary[]): string {
  const header = ['rule', 'firing', 'resolved', 'accounts'];
  const cells = rows.map((r) => [r.rule, String(r.firing), String(r.resolved), String(r.accounts)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]) =>
    c.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

/** `[#####-----]  50% 1234 transactions, 5 alerts` for a TTY. */
export function progressBar(done: number, transactions: number, alerts: number, width = 30): string {
  const filled = Math.round(Math.min(1, Math.max(0, done)) * width);
  const percent = `${Math.floor(Math.min(1, Math.max(0, done)) * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${percent} ${transactions} transactions, ${alerts} alerts`;
}
