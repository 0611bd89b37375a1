// The status page's small charts, inline SVG (the CSP allows no script and no image source, and needs neither):
// alerts fired per hour by severity over the last 24 h, staleness and query-service lag over the last hour, and
// outbox depth over the last hour. Pure; numbers only go into the drawing, every label through the `html` tag.
import { formatDuration } from './format-status.js';
import { html, type SafeHtml } from './html.js';
import type { HistorySample, HourCount } from './status-history.js';
import type { StatusModel } from './status-model.js';

const W = 480;
const H = 120;
const HOUR = 3_600_000;
const SEVERITIES = ['critical', 'warning', 'info'] as const;

export function renderCharts(model: StatusModel): SafeHtml {
  return html`<section id="trends">
    <h2>Trends</h2>
    <div class="charts">
      ${alertsChart(model.alertsPerHour, model.now)}
      ${lineChart({
        id: 'chart-staleness',
        title: 'Staleness and query-service lag, last hour',
        samples: model.samples,
        now: model.now,
        series: [
          { name: 'max staleness', cls: 's1', value: (s) => s.staleMax },
          { name: 'p99 staleness', cls: 's2', value: (s) => s.staleP99 },
          { name: 'query-service lag', cls: 's3', value: (s) => s.lagSeconds },
        ],
        format: formatDuration,
      })}
      ${lineChart({
        id: 'chart-outbox',
        title: 'Outbox depth, last hour',
        samples: model.samples,
        now: model.now,
        series: [{ name: 'undelivered', cls: 's1', value: (s) => s.outbox }],
        format: (n) => String(Math.round(n)),
      })}
    </div>
  </section>`;
}

function alertsChart(hours: readonly HourCount[], now: number): SafeHtml {
  const first = Math.floor(now / HOUR) * HOUR - 23 * HOUR;
  const byHour = new Map(hours.map((h) => [h.hour, h]));
  const slots = Array.from({ length: 24 }, (_, i) => byHour.get(first + i * HOUR));
  const total = (h: HourCount | undefined) => (h ? h.critical + h.warning + h.info : 0);
  const max = Math.max(1, ...slots.map(total));
  const sum = slots.reduce((n, h) => n + total(h), 0);
  const slot = W / 24;
  const bars = slots.map((h, i) => {
    if (!h || total(h) === 0) return '';
    let y = H;
    const parts = SEVERITIES.map((sev) => {
      const height = (h[sev] / max) * (H - 4);
      y -= height;
      return height > 0
        ? html`<rect
            class="${sev}"
            x="${(i * slot + 2).toFixed(1)}"
            y="${y.toFixed(1)}"
            width="${(slot - 4).toFixed(1)}"
            height="${height.toFixed(1)}"
          ></rect>`
        : '';
    });
    const label = `${new Date(h.hour).toISOString().slice(11, 16)} UTC: ${h.critical} critical, ${h.warning} warning, ${h.info} info`;
    return html`<g><title>${label}</title>${parts}</g>`;
  });
  return chartFrame({
    id: 'chart-alerts',
    title: 'Alerts fired per hour, last 24 h',
    legend: html`${SEVERITIES.map((s) => html`<span class="key ${s}">${s}</span>`)}`,
    scale: `max ${max}/h · ${sum} in 24 h`,
    from: '−24 h',
    body: html`${bars}`,
    empty: sum === 0 ? 'no alert fired in the last 24 h' : undefined,
  });
}

interface Series {
  readonly name: string;
  readonly cls: string;
  readonly value: (s: HistorySample) => number | undefined;
}

function lineChart(options: {
  id: string;
  title: string;
  samples: readonly HistorySample[];
  now: number;
  series: readonly Series[];
  format: (n: number) => string;
}): SafeHtml {
  const { samples, now } = options;
  const values = options.series.flatMap((s) => samples.map(s.value)).filter(isFinite);
  const max = Math.max(0, ...values);
  const top = max > 0 ? max * 1.1 : 1;
  const x = (at: number) => Math.min(W, Math.max(0, W - ((now - at) / HOUR) * W));
  const y = (v: number) => H - (v / top) * (H - 4);
  const lines = options.series.map((s) => {
    const points = samples
      .map((p) => [p.at, s.value(p)] as const)
      .filter((p): p is readonly [number, number] => isFinite(p[1]))
      .map(([at, v]) => `${x(at).toFixed(1)},${y(v).toFixed(1)}`)
      .join(' ');
    return points === ''
      ? ''
      : html`<polyline class="${s.cls}" points="${points}" vector-effect="non-scaling-stroke"></polyline>`;
  });
  const last = samples.at(-1);
  const latest = options.series.map((s) => {
    const v = last ? s.value(last) : undefined;
    return html`<span class="key ${s.cls}"
      >${s.name} <strong>${isFinite(v) ? options.format(v) : '—'}</strong></span
    >`;
  });
  return chartFrame({
    id: options.id,
    title: options.title,
    legend: html`${latest}`,
    scale: `max ${options.format(max)}`,
    from: '−1 h',
    body: html`${lines}`,
    empty: values.length === 0 ? 'collecting: the first samples appear within a minute' : undefined,
  });
}

function isFinite(n: number | undefined): n is number {
  return n !== undefined && Number.isFinite(n);
}

function chartFrame(c: {
  id: string;
  title: string;
  legend: SafeHtml;
  scale: string;
  from: string;
  body: SafeHtml;
  empty: string | undefined;
}): SafeHtml {
  return html`<figure class="chart" id="${c.id}">
    <figcaption>${c.title}</figcaption>
    <div class="legend">${c.legend}</div>
    <div class="plot">
      <span class="scale">${c.scale}</span>
      <svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="${c.title}">
        <line class="axis" x1="0" y1="${H}" x2="${W}" y2="${H}" vector-effect="non-scaling-stroke"></line>
        ${c.body}
      </svg>
      ${c.empty === undefined ? '' : html`<span class="empty">${c.empty}</span>`}
    </div>
    <div class="ticks"><span>${c.from}</span><span>now</span></div>
  </figure>`;
}
