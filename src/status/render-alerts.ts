// The status page's alerts: the filters, what is firing now, and the history of the last 24 h — two views of one
// list (alert-rows.ts), so they agree — each row with its silence and ack, and links to silence or ack it.
// Pure; every value through the escaping `html` tag (html.ts).
import type { AlertRow } from './alert-rows.js';
import { formatAgo, formatTime } from './format-status.js';
import { html, type SafeHtml } from './html.js';
import { renderActionForm } from './render-actions.js';
import { ALERT_STATES, filterQuery, isFiltered, type StatusFilter } from './status-filter.js';
import type { StatusModel } from './status-model.js';

const STATE_TEXT: ReadonlyMap<string, string> = new Map([
  ['firing', 'firing'],
  ['resolved', 'resolved'],
  ['one-shot', 'fired (one-shot)'],
]);

export function renderAlerts(model: StatusModel): SafeHtml {
  const { alerts } = model;
  const { firing, history, filter } = alerts;
  const filtered = isFiltered(filter);
  const more =
    firing.total > firing.rows.length
      ? html`<p class="muted">showing ${firing.rows.length} of ${firing.total} firing alerts</p>`
      : '';
  const firingTable =
    firing.rows.length === 0
      ? html`<p class="calm" id="none-firing">
          ${filtered ? 'no alert matching the filters is firing' : 'no alert is firing'}
        </p>`
      : html`<div class="rows">${firing.rows.map((a) => alertCard(a, model))}</div>`;
  return html`<section id="alerts">
    ${renderActionForm(model)}
    <h2>Firing now <span class="count">${firing.total}</span></h2>
    ${filterForm(model)} ${firingTable}${more}
    <h2>Alert history, last 24 h <span class="count">${history.total}</span></h2>
    <p class="muted">
      Every alert key once, at its latest state: firing, resolved, or fired (one-shot: rules that alert per
      record never resolve).
    </p>
    ${
      history.rows.length === 0
        ? html`<p class="muted">no alert${filtered ? ' matches the filters' : ' in the last 24 h'}</p>`
        : historyTable(history.rows, model)
    }
    ${pager(filter, history.page, history.pages)}
  </section>`;
}

function filterForm(model: StatusModel): SafeHtml {
  const f = model.alerts.filter;
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}" ${selected ? 'selected' : ''}>${label}</option>`;
  const ruleIds = model.rules.map((r) => r.id);
  if (f.rule !== undefined && !ruleIds.includes(f.rule)) ruleIds.push(f.rule);
  return html`<form class="filters" method="get" action="/" id="filters">
    <label
      >severity
      <select name="severity">
        ${option('', 'any', f.severity === undefined)}
        ${['critical', 'warning', 'info'].map((s) => option(s, s, f.severity === s))}
      </select></label
    >
    <label
      >rule
      <select name="rule">
        ${option('', 'any', f.rule === undefined)} ${ruleIds.map((r) => option(r, r, f.rule === r))}
      </select></label
    >
    <label
      >account <input name="account" value="${f.account ?? ''}" placeholder="id or name" size="14"
    /></label>
    <label
      >state
      <select name="state">
        ${option('', 'any', f.state === undefined)}
        ${ALERT_STATES.map((s) => option(s, STATE_TEXT.get(s) ?? s, f.state === s))}
      </select></label
    >
    ${model.refreshSeconds === 0 ? html`<input type="hidden" name="refresh" value="off" />` : ''}
    <button type="submit">Filter</button>
    ${isFiltered(f) ? html`<a href="/" class="clear">clear filters</a>` : ''}
  </form>`;
}

/** A firing alert: what, where, since when, what holds it back, and what to do. */
function alertCard(a: AlertRow, model: StatusModel): SafeHtml {
  const link = (action: string) => actionLink(model, action, a.id);
  return html`<article class="alert ${a.severity}" id="alert-${a.id}">
    <div class="line1">
      <span class="badge ${a.severity}">${a.severity}</span>
      <code class="rule">${a.ruleId}</code>
      <span class="account">${a.account}</span>
      <span class="since muted" title="${a.startsAt}"
        >since ${formatTime(Date.parse(a.startsAt))} · ${formatAgo(Date.parse(a.startsAt), model.now)}</span
      >
    </div>
    <div class="summary-text">${a.summary}</div>
    <div class="memo mono">${a.memo}</div>
    <div class="line3">
      ${holdBack(a)}
      <span class="actions"
        ><a href="${link('silence')}">silence…</a>
        ${a.ack ? '' : html`<a href="${link('ack')}">ack…</a>`}</span
      >
    </div>
  </article>`;
}

function holdBack(a: AlertRow): SafeHtml {
  const s = a.silencedBy;
  const silence = s
    ? html`<span class="warn silenced"
        >silenced${s.notifiers.length > 0 ? ` on ${s.notifiers.join(', ')}` : ''} by <code>${s.id}</code>
        <span class="muted paren">${s.comment}</span></span
      >`
    : '';
  const ack = a.ack
    ? html`<span class="acked"
        >acked by ${a.ack.by} at ${formatTime(Date.parse(a.ack.at))}
        <span class="muted paren">${a.ack.comment}</span></span
      >`
    : '';
  return s || a.ack ? html`${silence} ${ack}` : html`<span class="muted">notifying</span>`;
}

function historyTable(rows: readonly AlertRow[], model: StatusModel): SafeHtml {
  const { now } = model;
  const body = rows.map(
    (a) =>
      html`<tr class="alert">
        <td data-label="severity"><span class="badge ${a.severity}">${a.severity}</span></td>
        <td data-label="state" class="state ${a.state}">${STATE_TEXT.get(a.state) ?? a.state}</td>
        <td data-label="rule" class="rule"><code>${a.ruleId}</code></td>
        <td data-label="account">${a.account}</td>
        <td data-label="summary" class="wide">
          ${a.summary}
          <div class="memo mono muted">${a.memo}</div>
        </td>
        <td data-label="started" class="time" title="${a.startsAt}">${formatTime(Date.parse(a.startsAt))}</td>
        <td data-label="last change" class="time" title="${a.lastSeen}">
          ${formatAgo(Date.parse(a.lastSeen), now)}
        </td>
        <td data-label="actions" class="time">
          <a href="${actionLink(model, 'silence', a.id)}">silence…</a>
          ${a.state === 'one-shot' && !a.ack ? html`<a href="${actionLink(model, 'ack', a.id)}">ack…</a>` : ''}
        </td>
      </tr>`,
  );
  return html`<table class="cards-on-phone" id="history">
    <thead>
      <tr>
        <th>severity</th>
        <th>state</th>
        <th>rule</th>
        <th>account</th>
        <th>summary</th>
        <th>started</th>
        <th>last change</th>
        <th></th>
      </tr>
    </thead>
    <tbody>
      ${body}
    </tbody>
  </table>`;
}

function pager(filter: StatusFilter, page: number, pages: number): SafeHtml | string {
  if (pages <= 1) return '';
  const link = (n: number, label: string) =>
    n >= 1 && n <= pages && n !== page
      ? html`<a href="${filterQuery(filter, { page: String(n) })}#alerts">${label}</a>`
      : html`<span class="muted">${label}</span>`;
  return html`<nav class="pager">
    ${link(page - 1, '‹ newer')}<span>page ${page} of ${pages}</span>${link(page + 1, 'older ›')}
  </nav>`;
}

/** The page itself with the silence or ack form of alert `id` open, the filters kept. */
function actionLink(model: StatusModel, action: string, id: string): string {
  const keep = filterQuery(model.alerts.filter);
  return `${keep === '' ? '?' : `${keep}&`}${action}=${encodeURIComponent(id)}#action`;
}
