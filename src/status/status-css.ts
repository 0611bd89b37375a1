// The status page's whole style sheet, inline (the Content-Security-Policy allows inline styles and nothing else).
// Wide screens get tables; below 960 px the alert history turns into one card per alert, and below 760 px the
// other wide tables scroll inside their box, so the page itself never scrolls sideways.
import { html } from './html.js';

// Written with the `html` tag (whose literal text is never escaped): CSS strings need their quotes as they are.
// prettier-ignore
export const STATUS_CSS = html`
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #6e7781;
  --line: #8883; --panel: #8881; --s1: #cf222e; --s2: #bc4c00; --s3: #0969da; }
@media (prefers-color-scheme: dark) { :root { --ok: #3fb950; --bad: #f85149; --warn: #d29922; --muted: #8b949e;
  --s1: #f85149; --s2: #db6d28; --s3: #58a6ff; } }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1320px; padding: 0 20px 40px; }
header { display: flex; flex-wrap: wrap; gap: 6px 20px; align-items: baseline; padding: 10px 0 8px;
  border-bottom: 1px solid var(--line); }
header .tools { margin-left: auto; display: flex; gap: 12px; align-items: baseline; }
h1 { font-size: 20px; margin: 0; }
h2 { font-size: 17px; margin: 28px 0 10px; display: flex; gap: 8px; align-items: baseline; }
h2 .count { font-size: 13px; font-weight: 600; padding: 0 8px; border-radius: 10px; background: var(--panel);
  border: 1px solid var(--line); }
a { color: var(--s3); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top;
  overflow-wrap: break-word; }
td.wide { overflow-wrap: anywhere; min-width: 14em; }
th { font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, monospace; font-size: 13px; overflow-wrap: anywhere; }
.ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); } .muted { color: var(--muted); }
.badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; }
.critical { color: var(--bad); } .warning { color: var(--warn); } .info { color: var(--muted); }
.summary { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 4px 0 8px; }
nav.pager { display: flex; flex-wrap: wrap; gap: 12px; margin: 8px 0; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(128px, 1fr)); gap: 10px; margin: 14px 0 0; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; background: var(--panel); }
.card .value { font-size: 22px; font-weight: 650; font-variant-numeric: tabular-nums; }
.card .label { font-size: 12px; color: var(--muted); }
.card.ok .value { color: var(--ok); } .card.bad .value { color: var(--bad); } .card.warn .value { color: var(--warn); }
.card.bad { border-color: var(--bad); }
td.time { white-space: nowrap; font-size: 13px; }
.memo:empty, .paren:empty { display: none; } .memo::before { content: 'memo: '; color: var(--muted); }
.paren::before { content: '('; } .paren::after { content: ')'; }
.memo:empty, .paren:empty { display: none; } .memo::before { content: 'memo: '; color: var(--muted); }
.paren::before { content: '('; } .paren::after { content: ')'; }
.memo { white-space: pre-wrap; overflow-wrap: anywhere; font-size: 12px; }
.scroll { overflow-x: auto; max-width: 100%; }
.calm { color: var(--ok); font-weight: 600; padding: 10px 12px; border: 1px dashed var(--line); border-radius: 8px; }
.rows { display: grid; gap: 8px; }
article.alert { border: 1px solid var(--line); border-left: 5px solid currentColor; border-radius: 6px;
  padding: 8px 12px; color: inherit; background: var(--panel); }
article.alert.critical { border-left-color: var(--bad); } article.alert.warning { border-left-color: var(--warn); }
article.alert.info { border-left-color: var(--muted); }
article .line1, article .line3 { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; }
article .summary-text { font-size: 15px; font-weight: 600; margin: 4px 0 2px; overflow-wrap: anywhere; }
article .account { overflow-wrap: anywhere; }
article .actions { margin-left: auto; display: flex; gap: 12px; }
article .since { font-size: 13px; }
.state.firing { color: var(--bad); font-weight: 600; } .state.resolved { color: var(--ok); }
.state.one-shot { color: var(--warn); }
form.filters { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: end; margin: 0 0 12px; padding: 8px 12px;
  border: 1px solid var(--line); border-radius: 8px; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
input, select, textarea, button { font: inherit; max-width: 100%; }
form.inline { display: inline; } form.inline button { padding: 1px 10px; }
.panel { border: 2px solid var(--s3); border-radius: 8px; padding: 4px 16px 14px; margin: 16px 0; }
.panel form { display: flex; flex-wrap: wrap; gap: 10px 16px; align-items: end; }
.panel label { display: flex; flex-direction: column; gap: 2px; font-size: 13px; }
.panel label.block { flex-basis: 100%; } .panel textarea { width: 100%; font-family: ui-monospace, monospace; }
.panel .grow { min-width: 240px; }
.done { border: 1px solid var(--ok); color: var(--ok); border-radius: 8px; padding: 8px 12px; font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; }
figure.chart { margin: 0; border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; min-width: 0; }
figure.chart figcaption { font-weight: 600; }
.legend { display: flex; flex-wrap: wrap; gap: 2px 12px; font-size: 12px; color: var(--muted); }
.legend .key::before { content: ''; display: inline-block; width: 10px; height: 10px; border-radius: 2px;
  margin-right: 4px; background: currentColor; }
.legend .key.critical { color: var(--bad); } .legend .key.warning { color: var(--warn); }
.legend .key.info { color: var(--muted); }
.legend .key.s1 { color: var(--s1); } .legend .key.s2 { color: var(--s2); } .legend .key.s3 { color: var(--s3); }
.legend strong { color: CanvasText; }
.plot { position: relative; margin-top: 4px; }
.plot svg { display: block; width: 100%; height: 110px; }
.plot .scale { position: absolute; top: 0; left: 2px; font-size: 11px; color: var(--muted); }
.plot .empty { position: absolute; inset: 0; display: grid; place-items: center; font-size: 13px; color: var(--muted); }
svg rect.critical { fill: var(--bad); } svg rect.warning { fill: var(--warn); } svg rect.info { fill: var(--muted); }
svg polyline { fill: none; stroke-width: 2; } svg polyline.s1 { stroke: var(--s1); }
svg polyline.s2 { stroke: var(--s2); } svg polyline.s3 { stroke: var(--s3); }
svg line.axis { stroke: var(--line); stroke-width: 1; }
.ticks { display: flex; justify-content: space-between; font-size: 11px; color: var(--muted); }
@media (max-width: 960px) {
  table.cards-on-phone thead { display: none; }
  table.cards-on-phone, table.cards-on-phone tbody, table.cards-on-phone tr, table.cards-on-phone td { display: block; }
  table.cards-on-phone tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 8px; padding: 4px 8px; }
  table.cards-on-phone td { border: 0; padding: 1px 0; white-space: normal; }
  table.cards-on-phone td::before { content: attr(data-label) ': '; color: var(--muted); font-size: 12px; }
  table.cards-on-phone td.wide::before { display: block; }
}
@media (max-width: 760px) {
  body { padding: 0 10px 32px; }
  .cards { grid-template-columns: repeat(auto-fit, minmax(108px, 1fr)); gap: 6px; }
  .card { padding: 6px 8px; } .card .value { font-size: 18px; }
  header .tools { margin-left: 0; }
  article .actions { margin-left: 0; }
  .scroll table.wide { min-width: 640px; }
}
`;
