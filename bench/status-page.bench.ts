// Bench 8 (status page): the cost of one GET / with 10,000 streams and 100 rules: the status model (sort and page
// the streams, summarise staleness, match alerts against silences) plus the HTML, measured in-process, and the
// same page through the daemon's HTTP server (node:http on 127.0.0.1). The inputs are built once (sample-inputs.ts):
// gathering them from the store (src/status/status-inputs.ts) is measured apart, on an outbox of 100,000 alerts.
import { createOutbox } from '../src/delivery/outbox.js';
import { testAlert } from '../test/helpers/alerts.js';
import { createMetrics } from '../src/observability/metrics.js';
import { openStateStore } from '../src/state/store.js';
import { startHttpServer } from '../src/observability/http-server.js';
import { renderStatusPage } from '../src/status/render-status.js';
import { buildStatusModel } from '../src/status/status-model.js';
import { sampleStatusInputs } from '../test/helpers/sample-inputs.js';
import { figure, percentile, round, type Figure } from './lib/figures.js';
import { TARGETS, checkedTarget } from './targets.js';
import { isMain, runStandalone, type BenchOptions } from './lib/options.js';

const SUITE = '8 status page';
const STREAMS = 10_000;
const RULES = 100;
/** The page lists at most 100 firing alerts (src/status/status-inputs.ts). */
const FIRING = 100;
const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script>';

function timed(fn: () => unknown): number {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function statusPageBench(options: BenchOptions): Promise<Figure[]> {
  const runs = options.quick ? 50 : 300;
  const inputs = sampleStatusInputs({ streams: STREAMS, rules: RULES, firing: FIRING, text: HOSTILE });
  const render = (page: number) => renderStatusPage(buildStatusModel({ ...inputs, streamsPage: page }));
  for (let i = 0; i < 20; i++) render(1 + (i % 200)); // warm-up: JIT
  const models = Array.from({ length: runs }, (_, i) =>
    timed(() => buildStatusModel({ ...inputs, streamsPage: 1 + (i % 200) })),
  );
  const pages = Array.from({ length: runs }, (_, i) => timed(() => render(1 + (i % 200))));
  const bytes = Buffer.byteLength(render(1));
  options.log(`model + HTML: median ${round(percentile(pages, 50))} ms over ${runs} runs, ${bytes} bytes`);
  const http = await httpTimes(render, options.quick ? 30 : 100);
  const reads = storeReads(options.quick ? 20_000 : OUTBOX_ALERTS, options.quick ? 30 : 100);
  return [
    figure(SUITE, `model only (${STREAMS} streams, ${RULES} rules): median`, round(percentile(models, 50)), {
      unit: 'ms',
      note: `p99 ${round(percentile(models, 99))} ms`,
    }),
    checkedTarget(SUITE, 'model + HTML: median', round(percentile(pages, 50)), TARGETS.statusMedianMs, {
      unit: 'ms',
    }),
    checkedTarget(SUITE, 'model + HTML: p99', round(percentile(pages, 99)), TARGETS.statusP99Ms, {
      unit: 'ms',
      note: `${runs} renders, pages 1–200 in turn, ${FIRING} firing alerts, hostile memos`,
    }),
    figure(SUITE, 'GET / over HTTP: median', round(percentile(http, 50)), {
      unit: 'ms',
      note: `p99 ${round(percentile(http, 99))} ms; ${Math.round(bytes / 1024)} KiB page`,
    }),
    figure(
      SUITE,
      `store reads (outbox of ${reads.alerts} alerts): median`,
      round(percentile(reads.times, 50)),
      {
        unit: 'ms',
        note: `p99 ${round(percentile(reads.times, 99))} ms; depth, last errors, latest 20, firing 100 + count`,
      },
    ),
  ];
}

const OUTBOX_ALERTS = 100_000;

/**
 * What status-inputs.ts reads from the store on each request, on an outbox grown by a long run: most rows sent,
 * 1 % dead-lettered, 1 % retrying, 1,000 alerts firing.
 */
function storeReads(alerts: number, runs: number): { alerts: number; times: number[] } {
  let now = 0;
  const store = openStateStore({ dir: ':memory:' });
  const outbox = createOutbox(store, () => now);
  store.transaction(() => {
    for (let i = 0; i < alerts; i++) {
      now = i;
      const alert = testAlert({ key: `k${i}`, id: `a${i}`, resolves: i < 1000 });
      outbox.enqueue(alert, ['ops', 'mail']);
      if (i % 100 === 0) outbox.deadLetter([alert.id], 'ops', i, 'http_400');
      else if (i % 100 === 1) outbox.reschedule([alert.id], 'mail', i + 60_000, 'http_503');
      else if (i % 100 !== 2) for (const channel of ['ops', 'mail']) outbox.markSent([alert.id], channel, i);
    }
  });
  const times = Array.from({ length: runs }, () =>
    timed(() => {
      outbox.depth();
      outbox.lastErrors();
      outbox.recent(20);
      outbox.firing.list(100);
      outbox.firing.size();
    }),
  );
  store.close();
  return { alerts, times };
}

async function httpTimes(render: (page: number) => string, runs: number): Promise<number[]> {
  const server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    registry: createMetrics({ version: 'bench' }).registry,
    readiness: () => ({}),
    statusPage: (query) => render(Number(query.get('streams_page') ?? '1')),
  });
  try {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = process.hrtime.bigint();
      const res = await fetch(`${server.url}/?streams_page=${1 + (i % 200)}`);
      await res.text();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return times;
  } finally {
    await server.close();
  }
}

if (isMain(import.meta.url)) await runStandalone(statusPageBench);
