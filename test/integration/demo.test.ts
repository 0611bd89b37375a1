// `ledger-sentinel demo` end to end: simulator, daemon, example rules, console and Slack-like delivery.
import { describe, expect, it } from 'vitest';
import { startCli } from './cli-harness.js';

const ALERT_LINE = /^\[(INFO|WARNING|CRITICAL)\] /gm;

describe('demo', () => {
  it('prints readable alerts from the example rules, posts them to the Slack-like sink, and stops on Ctrl-C', async () => {
    const demo = startCli(['demo']);

    await demo.waitFor(
      (out) =>
        (out.match(ALERT_LINE) ?? []).length >= 3 &&
        out.includes('firing large-debit treasury-hot (0.0.1003)'),
    );
    demo.abort();
    const code = await demo.done;

    expect(code).toBe(0);
    expect(demo.stdout()).toMatch(/^\[CRITICAL\] treasury-hot: 25000\.\d+ HBAR debited$/m);
    expect(demo.stdout()).toMatch(/demo: stopped; [1-9]\d* messages were posted to the Slack-like sink/);
  }, 120_000);

  it('stops by itself after --duration', async () => {
    const demo = startCli(['demo', '--duration', '3s']);

    const code = await demo.done;

    expect(code).toBe(0);
    expect(demo.stdout()).toContain('ledger-sentinel demo: stopped');
  }, 60_000);

  it('rejects a bad --duration with exit 2', async () => {
    const demo = startCli(['demo', '--duration', 'soon']);

    const code = await demo.done;

    expect(code).toBe(2);
    expect(demo.stderr()).toContain('--duration: expected a duration like "30s", got "soon"');
  });
});
