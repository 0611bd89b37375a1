// The HTML part of an alert email (pure): every value HTML-escaped, the transaction and the account linked to the
// explorer when it serves the network, only http(s) links.
import type { Alert, AlertRecord } from '../../rules/alert/alert.js';
import {
  accountLabel,
  alertHeadline,
  explanationFields,
  firstN,
  formatConsensusTime,
  otherRecords,
  recordFields,
  triggerRecord,
} from '../format.js';

const OTHERS_LISTED = 5;

export function emailHtml(title: string, alerts: readonly Alert[], tail: readonly string[]): string {
  const body = alerts.map(alertHtml).join('\n');
  const more = tail.map((t) => `<p><em>${escapeHtml(t)}</em></p>`).join('');
  return `<!doctype html>\n<html><body>\n<h2>${escapeHtml(title)}</h2>\n${body}\n${more}\n</body></html>\n`;
}

function alertHtml(alert: Alert): string {
  const status = alert.status === 'resolved' ? 'RESOLVED' : 'FIRING';
  const color = alert.status === 'resolved' ? '#2eb886' : '#d00000';
  const lines = [`<strong style="color:${color}">${status}</strong> ${escapeHtml(alertHeadline(alert))}`];
  if (alert.description) lines.push(escapeHtml(alert.description).replace(/\n/g, '<br>\n'));
  lines.push(...explanationFields(alert).map(([k, v]) => labelled(k, escapeHtml(v))));
  lines.push(labelled('Rule', escapeHtml(alert.ruleId)), labelled('Severity', escapeHtml(alert.severity)));
  const account = accountLabel(alert);
  if (account) lines.push(labelled('Account', anchor(alert.accountUrl, account)));
  const record = triggerRecord(alert);
  if (record) lines.push(...recordHtml(record));
  const others = otherRecords(alert);
  if (others.length) lines.push(othersHtml(others));
  return `<p>${lines.join('<br>\n')}</p>`;
}

function recordHtml(record: AlertRecord): string[] {
  const lines = recordFields(record).map(([k, v]) =>
    labelled(k, k === 'Transaction' ? anchor(record.explorerUrl, v) : escapeHtml(v)),
  );
  if (record.memo) lines.push(labelled('Memo', escapeHtml(record.memo)));
  return lines;
}

function othersHtml(others: readonly AlertRecord[]): string {
  const { shown, more } = firstN([...others].reverse(), OTHERS_LISTED);
  const items = shown.map((r) => {
    const what = [r.type, r.result, formatConsensusTime(r.consensusTimestamp)].filter(Boolean).join(' ');
    return `<li>${anchor(r.explorerUrl, r.transactionId ?? r.consensusTimestamp)} ${escapeHtml(what)}</li>`;
  });
  if (more > 0) items.push(`<li>and ${more} more</li>`);
  return `Also in the window (${others.length}):<ul>${items.join('')}</ul>`;
}

function labelled(label: string, html: string): string {
  return `${escapeHtml(label)}: ${html}`;
}

/** `<a href>` for an http(s) URL, else the escaped text alone. */
function anchor(url: string | undefined, text: string): string {
  if (!url || !/^https?:\/\//i.test(url)) return escapeHtml(text);
  return `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
