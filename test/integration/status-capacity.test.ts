// The status page's capacity line served by the running daemon: the tail's request demand against the request
// budget (ledger.requests_per_second), read from the live tailer, and the warning with what to do once the
// demand nears the budget — absent while the budget is ample (docs/operations.md, "The status page").
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  LARGE_DEBIT_RULE,
  httpUrlOf,
  metricValue,
  startDaemonEnv,
  until,
  type DaemonEnv,
} from './daemon-harness.js';

const RATIO = 'ledger_sentinel_tail_capacity_ratio';

/** The health section's capacity line and warning, up to the checks table. */
function capacitySection(page: string): string {
  const from = page.indexOf('<div class="summary" id="capacity">');
  return from < 0 ? '' : page.slice(from, page.indexOf('<table', from));
}

describe('the status page shows the tail capacity', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('large-debit.yaml', LARGE_DEBIT_RULE);
  });
  afterEach(async () => env.close());

  /** A global tail polling every 300 ms with 2 s sweeps needs about 7 requests/s (daemon-capacity.test.ts). */
  function configure(budget: number): void {
    env.writeConfig('', { tail: 'strategy: global, poll_interval: 300ms, overlap: 2s' });
    const text = readFileSync(env.configPath, 'utf8');
    writeFileSync(env.configPath, text.replace('ledger:\n', `ledger:\n  requests_per_second: ${budget}\n`));
  }

  it.for([
    { budget: 3, over: true },
    { budget: 1000, over: false },
  ])('with a budget of $budget requests/s', { timeout: 30_000 }, async ({ budget, over }) => {
    configure(budget);
    const run = env.run();
    const url = await httpUrlOf(run);
    await until(async () => {
      const ratio = (await metricValue(url, RATIO)) ?? 0;
      return over ? ratio > 1 : ratio > 0;
    });

    const res = await fetch(`${url}/`);
    const page = await res.text();
    run.abort();
    await run.done;

    const section = capacitySection(page);
    expect(res.status).toBe(200);
    expect(section).toMatch(
      new RegExp(`demand <strong>\\d+\\.\\d req/s</strong> of a\\s+<strong>${budget} req/s</strong> budget`),
    );
    expect(page).toContain('tail strategy: <strong>global</strong>');
    if (over) {
      expect(section).toMatch(/<strong class="bad">ratio [1-9]\d*\.\d\d<\/strong>/);
      expect(section).toMatch(/<p class="bad" id="capacity-warning">\s*Over the request budget/);
      expect(section).toContain('ledger.requests_per_second');
    } else {
      expect(section).toMatch(/<strong class="ok">ratio 0\.0\d<\/strong>/);
      expect(page).not.toContain('capacity-warning');
    }
  });
});
