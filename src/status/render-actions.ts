// The status page's silence and ack forms, shown for the alert a "silence…" or "ack…" link selected
// (`?silence=<id>` / `?ack=<id>`; the page does not reload itself while one is open). They post to
// /actions/silence and /actions/ack (api/page-actions.ts) with the session's CSRF token; without a session
// the page says how to get one. Pure; every value through the escaping `html` tag.
import { html, type SafeHtml } from './html.js';
import { filterQuery } from './status-filter.js';
import type { StatusModel } from './status-model.js';

const HOURS = [1, 2, 4, 8, 24, 72, 168];

export function renderActionForm(model: StatusModel): SafeHtml | string {
  const done = model.done
    ? html`<p class="done" id="done">
        ${model.done === 'silenced' ? 'Silence created: matching alerts are held back.' : 'Alert acknowledged.'}
      </p>`
    : '';
  const a = model.alerts.selected;
  const action = model.selected?.action;
  if (!a || !action) return done;
  const back = html`<a href="${filterQuery(model.alerts.filter)}#alerts">cancel</a>`;
  const title = html`<h2>
    ${action === 'silence' ? 'Silence' : 'Acknowledge'}
    <code>${a.ruleId}</code> ${a.account === '' ? '' : html`on ${a.account}`}
  </h2>`;
  const { viewer } = model;
  if (!viewer.writable)
    return html`<div class="panel" id="action">
      ${title}
      <p>Silences and acks need an API token: set <code>http.api_token_file</code> in the config. ${back}</p>
    </div>`;
  if (viewer.csrf === undefined)
    return html`<div class="panel" id="action">
      ${title}
      <p><a href="/login">Log in with the API token</a> to ${action} from this page. ${back}</p>
    </div>`;
  const common = html`<input type="hidden" name="csrf" value="${viewer.csrf}" />
    <label>your name <input name="by" required maxlength="200" autocomplete="username" /></label>
    <label>comment <input name="comment" maxlength="2000" placeholder="why" class="grow" /></label>`;
  const form =
    action === 'silence'
      ? html`<form method="post" action="/actions/silence" id="silence-form">
          <label class="block"
            >matchers, one per line (<code>name="value"</code>, <code>=~</code> for a regex)
            <textarea name="matchers" rows="3" required>${a.matchers}</textarea>
          </label>
          <label
            >for
            <select name="hours">
              ${HOURS.map((h) => html`<option value="${h}" ${h === 4 ? 'selected' : ''}>${h} h</option>`)}
            </select></label
          >
          ${common}
          <button type="submit">Create silence</button> ${back}
        </form>`
      : html`<form method="post" action="/actions/ack" id="ack-form">
          <p class="muted">${a.summary}</p>
          <input type="hidden" name="id" value="${a.id}" />
          ${common}
          <button type="submit">Acknowledge</button> ${back}
        </form>`;
  return html`${done}
    <div class="panel" id="action">${title} ${form}</div>`;
}
