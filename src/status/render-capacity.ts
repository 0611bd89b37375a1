// The status page's capacity line: the tail's request demand against the request budget, and a warning with what
// to do once the demand nears the budget (docs/tailing.md, "Capacity"). Pure; every value through the escaping
// `html` tag (html.ts).
import { html, type SafeHtml } from './html.js';
import type { CapacityLevel, CapacityRow } from './status-capacity.js';
import type { StatusModel } from './status-model.js';

const TONE: Readonly<Record<CapacityLevel, string>> = { ok: 'ok', high: 'warn', over: 'bad' };

const ADVICE =
  'Raise ledger.requests_per_second if the query service allows it, point ledger.base_url at a self-hosted ' +
  'mirror node, watch fewer accounts, or change tail.strategy (docs/tailing.md, "Capacity").';

export function renderCapacity(model: StatusModel): SafeHtml {
  const c = model.capacity;
  if (!c)
    return html`<div class="summary" id="capacity">
      <span
        >tail capacity: <strong>not estimated yet</strong>
        <span class="muted">(after the first round)</span></span
      >
    </div>`;
  return html`<div class="summary" id="capacity">
      <span>tail capacity: <strong class="${TONE[c.level]}">ratio ${fixed(c.ratio, 2)}</strong></span>
      <span
        >demand <strong>${fixed(c.demandRps, 1)} req/s</strong> of a
        <strong>${rate(c.budgetRps)} req/s</strong> budget</span
      >
      <span>ledger rate: <strong>${fixed(c.tps, 0)} TPS</strong></span>
    </div>
    ${warning(c)}`;
}

/** The overview card's value and tone. */
export function capacityCard(model: StatusModel): { readonly value: string; readonly tone: string } {
  const c = model.capacity;
  return c ? { value: fixed(c.ratio, 2), tone: TONE[c.level] } : { value: '—', tone: '' };
}

function warning(c: CapacityRow): SafeHtml | string {
  const figures = `the tail needs ${fixed(c.demandRps, 1)} requests/s and the budget allows ${rate(c.budgetRps)} (ratio ${fixed(c.ratio, 2)})`;
  if (c.level === 'over')
    return html`<p class="bad" id="capacity-warning">
      Over the request budget: ${figures}. The tail cannot keep up: staleness grows and alerts come later and
      later. ${ADVICE}
    </p>`;
  if (c.level === 'high')
    return html`<p class="warn" id="capacity-warning">
      Close to the request budget: ${figures}; above 1 staleness grows (sentinel-capacity-exceeded). ${ADVICE}
    </p>`;
  return '';
}

/** A figure to `digits` decimals, or a dash when it is not a finite number. */
function fixed(n: number, digits: number): string {
  return Number.isFinite(n) ? n.toFixed(digits) : '—';
}

/** A budget as configured: whole numbers without decimals. */
function rate(n: number): string {
  return Number.isInteger(n) ? String(n) : fixed(n, 1);
}
