// The status page served by the running daemon (no browser: see status-page.browser.test.ts for that): the
// composition root hands the page the live data — a firing alert from the simulator with its config silence,
// the trigger's memo escaped, the rule's last match, every stream, each notifier — under its CSP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpUrlOf, metricValue, startDaemonEnv, until, type DaemonEnv } from './daemon-harness.js';

const HOSTILE = '<img src=x onerror=alert(1)><script>alert(2)</script>';
const MATCHES = 'ledger_sentinel_rule_matches_total{rule="hostile-memo"}';
const RULE = `rules:
  - id: hostile-memo
    when: { memo: { contains: onerror } }
    window: { duration: 10m, count: 1 }
    severity: critical
    summary: '{{account.name}} memo {{memo}}'
    notify: [ops-slack]
`;

describe('the status page of the running daemon', () => {
  let env: DaemonEnv;
  beforeEach(async () => {
    env = await startDaemonEnv();
    env.writeRule('hostile-memo.yaml', RULE);
    env.writeConfig(`silences:\n  - { rule: hostile-memo, ends_at: "2099-01-01T00:00:00Z", comment: drill }`);
  });
  afterEach(async () => env.close());

  it('shows the firing alert, silenced, with its memo escaped, the rule matched, the streams and the notifier', async () => {
    const run = env.run();
    const url = await httpUrlOf(run);
    // Injected after the first poll, so the tail's starting point is before the record.
    await until(async () => (await fetch(`${url}/readyz`)).status === 200);
    env.ledger.ledger.inject({ payer: '0.0.1003', memo: HOSTILE });
    await until(async () => ((await metricValue(url, MATCHES)) ?? 0) >= 1);

    const res = await fetch(`${url}/?streams_page=9`);
    const page = await res.text();
    run.abort();
    await run.done;

    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const firing = page.slice(page.indexOf('<h2>Firing now'), page.indexOf('<h2>Alert history'));
    expect(firing).toContain('hostile-memo');
    expect(firing).toContain('silenced');
    expect(firing).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(page).not.toMatch(/<script|<img/i);
    const rules = page.slice(page.indexOf('<section id="rules">'), page.indexOf('<section id="notifiers">'));
    expect(rules).toMatch(/hostile-memo[\s\S]*<td class="num">[1-9]\d*<\/td>/);
    expect(rules).not.toContain('none since start');
    expect(page).toMatch(/Streams \(4\)/); // 2 accounts × transactions and rewards
    expect(page).toMatch(/treasury-hot <code class="muted">0\.0\.1003<\/code>/); // streams by name
    expect(page).toContain('page 1 of 1');
    expect(page).toMatch(/<code>ops-slack<\/code><\/td>\s*<td>slack<\/td>/);
  }, 30_000);
});
