// The status page's whole style sheet, inline (the Content-Security-Policy allows inline styles and nothing else).
export const STATUS_CSS = `
:root { color-scheme: light dark; --ok: #1a7f37; --bad: #cf222e; --warn: #9a6700; --muted: #6e7781; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 16px 32px; }
header { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: baseline; border-bottom: 1px solid #8884; }
h1 { font-size: 20px; margin: 16px 0 8px; }
h2 { font-size: 16px; margin: 24px 0 8px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 3px 8px; border-bottom: 1px solid #8883; vertical-align: top; }
th { font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, monospace; font-size: 13px; overflow-wrap: anywhere; }
.ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); } .muted { color: var(--muted); }
.badge { display: inline-block; padding: 0 6px; border-radius: 8px; font-size: 12px; border: 1px solid currentColor; }
.critical { color: var(--bad); } .warning { color: var(--warn); } .info { color: var(--muted); }
.summary { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 4px 0 8px; }
nav.pager { display: flex; gap: 12px; margin: 8px 0; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0 0; }
.card { border: 1px solid #8885; border-radius: 8px; padding: 8px 14px; min-width: 120px; }
.card .value { font-size: 20px; font-weight: 600; font-variant-numeric: tabular-nums; }
.card .label { font-size: 12px; color: var(--muted); }
.card.ok .value { color: var(--ok); } .card.bad .value { color: var(--bad); } .card.warn .value { color: var(--warn); }
td.time { white-space: nowrap; font-size: 13px; }
td.rule code { overflow-wrap: normal; white-space: nowrap; }
.memo { white-space: pre-wrap; overflow-wrap: anywhere; }
`;
