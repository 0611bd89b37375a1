// The status page's alert filters, from the GET query (`?severity=critical&rule=large-debit&account=0.0.1234&
// state=firing`). Values come from whoever wrote the URL: each is checked against a fixed set or compared by
// equality, never used to look up a property, so `constructor` or `__proto__` matches nothing special.
import type { AlertEntry } from '../delivery/alert-view.js';
import { SEVERITIES, type Severity } from '../rules/alert/alert.js';

/** An alert on the page: firing now (it will resolve), resolved, or a one-shot alert (it never resolves). */
export type AlertState = 'firing' | 'resolved' | 'one-shot';
export const ALERT_STATES: readonly AlertState[] = ['firing', 'resolved', 'one-shot'];

export interface StatusFilter {
  readonly severity?: Severity;
  readonly rule?: string;
  /** Account id or name. */
  readonly account?: string;
  readonly state?: AlertState;
}

const MAX_VALUE = 200;

/** The filter of a query; an unknown severity or state, or an over-long value, is ignored (and not shown). */
export function parseFilter(query: URLSearchParams): StatusFilter {
  const text = (name: string) => {
    const value = query.get(name)?.trim() ?? '';
    return value !== '' && value.length <= MAX_VALUE ? value : undefined;
  };
  const severity = SEVERITIES.find((s) => s === query.get('severity'));
  const state = ALERT_STATES.find((s) => s === query.get('state'));
  const rule = text('rule');
  const account = text('account');
  return {
    ...(severity ? { severity } : {}),
    ...(rule !== undefined ? { rule } : {}),
    ...(account !== undefined ? { account } : {}),
    ...(state ? { state } : {}),
  };
}

export function alertState(entry: Pick<AlertEntry, 'state' | 'resolves'>): AlertState {
  if (entry.state === 'resolved') return 'resolved';
  return entry.resolves ? 'firing' : 'one-shot';
}

export function matchesFilter(entry: AlertEntry, filter: StatusFilter): boolean {
  if (filter.severity !== undefined && entry.severity !== filter.severity) return false;
  if (filter.rule !== undefined && entry.rule !== filter.rule) return false;
  if (filter.state !== undefined && alertState(entry) !== filter.state) return false;
  const account = filter.account;
  return account === undefined || entry.account?.id === account || entry.account?.name === account;
}

export function isFiltered(filter: StatusFilter): boolean {
  return Object.keys(filter).length > 0;
}

/** The query string of a filter (plus extra parameters), for links that keep it. */
export function filterQuery(filter: StatusFilter, extra: Readonly<Record<string, string>> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filter, ...extra }))
    if (value !== undefined) params.set(name, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
