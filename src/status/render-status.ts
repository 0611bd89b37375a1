// The status page: the status model (status-model.ts) laid out as one HTML document. Pure. Every value goes
// through the `html` tag, which escapes it (html.ts); no script, no external resource: the page works under
// `Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'`.
import { dataTable } from './data-table.js';
import { html, type SafeHtml } from './html.js';
import { formatAgo, formatDuration, formatTime } from './format-status.js';
import { STATUS_CSS } from './status-css.js';
import { renderAlerts } from './render-alerts.js';
import { renderCharts } from './render-charts.js';
import { filterQuery } from './status-filter.js';
import { capacityCard, renderCapacity } from './render-capacity.js';
import type { StatusModel } from './status-model.js';

export function renderStatusPage(model: StatusModel): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        ${refreshMeta(model)}
        <title>
          ${model.alerts.counts.firing > 0 ? `(${model.alerts.counts.firing}) ` : ''}ledger-sentinel status
        </title>
        <style>
          ${STATUS_CSS}
        </style>
      </head>
      <body>
        ${header(model)} ${notices(model)} ${overview(model)}
        <main>
          ${renderAlerts(model)} ${renderCharts(model)} ${health(model)} ${streams(model)} ${silences(model)}
          ${rules(model)} ${notifiers(model)}
        </main>
      </body>
    </html> `.toString();
}

/** This page's own query (filters and pages), without the one-off parts (`done`, an open form). */
function selfQuery(model: StatusModel, extra: Readonly<Record<string, string>> = {}): string {
  const pages = {
    ...(model.alerts.history.page > 1 ? { page: String(model.alerts.history.page) } : {}),
    ...(model.streams.page > 1 ? { streams_page: String(model.streams.page) } : {}),
  };
  return filterQuery(model.alerts.filter, { ...pages, ...extra });
}

/** Reloads the page without a script; never while a silence or ack form is open (it would eat the typing). */
function refreshMeta(model: StatusModel): SafeHtml | string {
  if (model.refreshSeconds <= 0 || model.selected) return '';
  const target = selfQuery(model) || '/';
  return html`<meta http-equiv="refresh" content="${model.refreshSeconds}; url=${target}" />`;
}

function header(model: StatusModel): SafeHtml {
  const state = model.ready ? html`<span class="ok">ready</span>` : html`<span class="bad">not ready</span>`;
  const on = model.refreshSeconds > 0;
  const toggle = on
    ? html`auto-refresh every ${model.refreshSeconds} s ·
        <a href="${selfQuery(model, { refresh: 'off' })}" id="refresh-toggle">pause</a>`
    : html`auto-refresh paused · <a href="${selfQuery(model) || '/'}" id="refresh-toggle">resume</a>`;
  const session = model.viewer.csrf
    ? html`<form method="post" action="/logout" class="inline"><button type="submit">log out</button></form>`
    : model.viewer.writable
      ? html`<a href="/login">log in</a>`
      : '';
  return html`<header>
    <h1>ledger-sentinel</h1>
    <span id="readiness">${state}</span>
    <span class="muted"
      >version ${model.version} · up ${formatDuration(model.uptimeSeconds)} · ${formatTime(model.now)}</span
    >
    <span class="tools"><span class="muted" id="refresh">${toggle}</span> ${session}</span>
  </header>`;
}

/** What the setup still lacks (app/setup-notices.ts), above everything else. */
function notices(model: StatusModel): SafeHtml | string {
  if (model.notices.length === 0) return '';
  return html`<section id="notices" class="warn">
    <ul>
      ${model.notices.map((n) => html`<li>${n}</li>`)}
    </ul>
  </section>`;
}

/** The figures to read first, one card each. */
function overview(model: StatusModel): SafeHtml {
  const { summary } = model.streams;
  const depth = model.notifiers.reduce((n, x) => n + x.depth, 0);
  const failing = model.notifiers.filter((n) => n.lastError).length;
  const silenced = model.silences.filter((s) => s.state === 'active').length;
  const capacity = capacityCard(model);
  const { counts } = model.alerts;
  const card = (label: string, value: string, tone: string) =>
    html`<div class="card ${tone}">
      <div class="value">${value}</div>
      <div class="label">${label}</div>
    </div>`;
  return html`<div class="cards" id="overview">
    ${card('firing now', String(counts.firing), counts.firing > 0 ? 'bad' : 'ok')}
    ${card('one-shot alerts · 24 h', String(counts.oneShot), counts.oneShot > 0 ? 'warn' : '')}
    ${card('query service lag', model.lagSeconds === undefined ? '—' : formatDuration(model.lagSeconds), '')}
    ${card(`streams · p99 staleness`, `${summary.streams} · ${formatDuration(summary.p99)}`, '')}
    ${card('max staleness', formatDuration(summary.max), '')}
    ${card('outbox depth', String(depth), depth > 0 ? 'warn' : 'ok')}
    ${card('notifiers with errors', String(failing), failing > 0 ? 'bad' : 'ok')}
    ${card('active silences', String(silenced), silenced > 0 ? 'warn' : '')}
    ${card('tail demand ÷ request budget', capacity.value, capacity.tone)}
  </div>`;
}

function health(model: StatusModel): SafeHtml {
  const rows = model.checks.map(
    (c) =>
      html`<tr>
        <td>${c.name}</td>
        <td class="${c.ok ? 'ok' : 'bad'}">${c.ok ? 'ok' : 'failing'}</td>
        <td>${c.message}</td>
      </tr>`,
  );
  const lag =
    model.lagSeconds === undefined ? 'unknown (no page read yet)' : formatDuration(model.lagSeconds);
  return html`<section id="health">
    <h2>Query service and health</h2>
    <div class="summary">
      <span>lag behind consensus: <strong>${lag}</strong></span>
      <span>tail strategy: <strong>${model.strategy ?? '—'}</strong></span>
    </div>
    ${renderCapacity(model)} ${dataTable(['check', 'state', 'detail'], rows)}
  </section>`;
}

function streams(model: StatusModel): SafeHtml {
  const { summary, page, pages, first, rows } = model.streams;
  const body = rows.map(
    (s, i) =>
      html`<tr>
        <td class="num">${first + i}</td>
        <td>${s.name ?? ''} <code class="muted">${s.account}</code></td>
        <td>${s.source}</td>
        <td class="num">${formatDuration(s.seconds)}</td>
      </tr>`,
  );
  const link = (n: number, label: string) =>
    n >= 1 && n <= pages && n !== page
      ? html`<a href="${selfQuery(model, { streams_page: String(n) })}#streams">${label}</a>`
      : html`<span class="muted">${label}</span>`;
  return html`<section id="streams">
    <h2>Streams (${summary.streams})</h2>
    <div class="summary">
      <span>p50 staleness: <strong>${formatDuration(summary.p50)}</strong></span>
      <span>p99: <strong>${formatDuration(summary.p99)}</strong></span>
      <span>max: <strong>${formatDuration(summary.max)}</strong></span>
    </div>
    ${dataTable([{ num: '#' }, 'account', 'source', { num: 'staleness' }], body)}
    <nav class="pager">
      ${link(1, '« first')}${link(page - 1, '‹ stalest')}<span>page ${page} of ${pages}</span
      >${link(page + 1, 'fresher ›')}${link(pages, 'last »')}
    </nav>
  </section>`;
}

function silences(model: StatusModel): SafeHtml {
  const body = model.silences.map(
    (s) =>
      html`<tr>
        <td><code>${s.id}</code></td>
        <td class="${s.state === 'active' ? 'warn' : 'muted'}">${s.state}</td>
        <td class="mono">
          ${s.matchers.map((m, i) => html`${i > 0 ? ', ' : ''}${m.name}${m.op ?? '='}${m.value}`)}
        </td>
        <td class="time">${s.startsAt === '' ? '—' : formatTime(Date.parse(s.startsAt))}</td>
        <td class="time">${formatTime(Date.parse(s.endsAt))}</td>
        <td>${s.createdBy}${s.readOnly ? html` <span class="muted">(read-only)</span>` : ''}</td>
        <td>${s.comment}</td>
      </tr>`,
  );
  const table =
    model.silences.length === 0
      ? html`<p class="muted">no silence</p>`
      : dataTable(['id', 'state', 'matchers', 'starts', 'ends', 'created by', 'comment'], body);
  return html`<section id="silences">
    <h2>Silences (${model.silences.length})</h2>
    ${table}
  </section>`;
}

function rules(model: StatusModel): SafeHtml {
  const body = model.rules.map(
    (r) =>
      html`<tr>
        <td class="rule"><code>${r.id}</code></td>
        <td><span class="badge ${r.severity}">${r.severity}</span></td>
        <td>${r.source}</td>
        <td class="num">${r.matches}</td>
        <td>
          ${r.lastMatchAt === undefined ? html`<span class="muted">none since start</span>` : html`${formatTime(r.lastMatchAt)} <span class="muted">(${formatAgo(r.lastMatchAt, model.now)})</span>`}
        </td>
      </tr>`,
  );
  return html`<section id="rules">
    <h2>Rules (${model.rules.length})</h2>
    ${dataTable(['rule', 'severity', 'source', { num: 'matches since start' }, 'last match'], body)}
  </section>`;
}

function notifiers(model: StatusModel): SafeHtml {
  const body = model.notifiers.map(
    (n) =>
      html`<tr>
        <td><code>${n.name}</code></td>
        <td>${n.kind}</td>
        <td class="num">${n.depth}</td>
        <td>
          ${n.pausedUntil !== undefined && n.pausedUntil > model.now ? html`<span class="warn">paused until ${formatTime(n.pausedUntil)}</span>` : html`<span class="ok">delivering</span>`}
        </td>
        <td>
          ${n.lastError ? html`<span class="bad">${n.lastError.message}</span> <span class="muted">(${n.lastError.state === 'dead-lettered' ? 'dead-lettered' : 'retry'} ${formatTime(n.lastError.at)})</span>` : html`<span class="muted">—</span>`}
        </td>
      </tr>`,
  );
  return html`<section id="notifiers">
    <h2>Notifiers (${model.notifiers.length})</h2>
    ${dataTable(['notifier', 'kind', { num: 'outbox depth' }, 'state', 'last error'], body)}
  </section>`;
}
