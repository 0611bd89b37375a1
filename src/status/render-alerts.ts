// The status page's alert tables: firing alerts and the latest transitions, each with its silence and ack state.
// Pure; every value through the escaping `html` tag (html.ts).
import { html, type SafeHtml } from './html.js';
import { formatAgo, formatTime } from './format-status.js';
import type { AlertRow, StatusModel } from './status-model.js';

export function renderAlerts(model: StatusModel): SafeHtml {
  const { firing } = model;
  const more =
    firing.total > firing.rows.length
      ? html`<p class="muted">showing ${firing.rows.length} of ${firing.total} firing alerts</p>`
      : '';
  const firingTable =
    firing.rows.length === 0
      ? html`<p class="muted">no alert is firing</p>`
      : alertTable(firing.rows, model.now, false);
  const recent =
    model.recent.length === 0
      ? html`<p class="muted">no alert since the state was created</p>`
      : alertTable(model.recent, model.now, true);
  return html`<section id="alerts">
    <h2>Firing alerts (${firing.total})</h2>
    ${firingTable}${more}
    <h2>Latest alerts</h2>
    ${recent}
  </section>`;
}

function alertTable(rows: readonly AlertRow[], now: number, withStatus: boolean): SafeHtml {
  const head = html`<tr>
    <th>severity</th>
    ${withStatus ? html`<th>status</th>` : ''}
    <th>rule</th>
    <th>account</th>
    <th>summary</th>
    <th>memo</th>
    <th>since</th>
    <th>silence</th>
    <th>ack</th>
  </tr>`;
  const body = rows.map(
    (a) =>
      html`<tr class="alert">
        <td><span class="badge ${a.severity}">${a.severity}</span></td>
        ${withStatus ? html`<td>${a.status}</td>` : ''}
        <td class="rule"><code>${a.ruleId}</code></td>
        <td>${a.account}</td>
        <td>${a.summary}</td>
        <td class="memo mono">${a.memo}</td>
        <td class="time" title="${a.startsAt}">
          ${formatTime(Date.parse(a.startsAt))}<br /><span class="muted"
            >${formatAgo(Date.parse(a.startsAt), now)}</span
          >
        </td>
        <td>${silenceCell(a)}</td>
        <td>
          ${a.ack ? html`by ${a.ack.by} at ${a.ack.at}<br />${a.ack.comment}` : html`<span class="muted">—</span>`}
        </td>
      </tr>`,
  );
  return html`<table>
    <thead>
      ${head}
    </thead>
    <tbody>
      ${body}
    </tbody>
  </table>`;
}

function silenceCell(alert: AlertRow): SafeHtml {
  const s = alert.silencedBy;
  if (!s) return html`<span class="muted">—</span>`;
  const where = s.notifiers.length > 0 ? ` on ${s.notifiers.join(', ')}` : '';
  return html`<span class="warn">silenced${where}</span> <code>${s.id}</code><br />${s.comment}`;
}
