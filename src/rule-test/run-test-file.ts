// Every test of one loaded file: run (run-test-case.ts), compared (compare-alerts.ts), and reported as the lines
// `ledger-sentinel test` prints: `ok` or `FAIL` with the test's file:line:col, then for a failure each expected
// alert that did not fire (at its own file:line:col) beside the closest alert that did, and each unexpected alert.
import { locate } from '../config/locate.js';
import type { Alert } from '../rules/alert/alert.js';
import { compareAlerts } from './compare-alerts.js';
import { formatExpected, formatObserved } from './format-alert.js';
import { ownSummary } from './own-summary.js';
import { runTestCase } from './run-test-case.js';
import type { LoadedTestFile, Observed, TestResult } from './types.js';

export async function runTestFile(loaded: LoadedTestFile): Promise<TestResult[]> {
  const results: TestResult[] = [];
  const where = (path: (string | number)[], atKey = false) => {
    const { line, col } = loaded.parsed.lines.linePos(locate(loaded.parsed.documents[0], path, atKey));
    return `${loaded.file}:${line}:${col}`;
  };
  for (const [t, test] of loaded.spec.tests.entries()) {
    const run = await runTestCase(test, loaded);
    const got = run.sent.map((s) => observed(s.atNs, s.alert));
    const { mismatches, unexpected } = compareAlerts(test.expect, got, run.clock.start);
    const passed = mismatches.length === 0 && unexpected.length === 0;
    const lines = [`${passed ? 'ok  ' : 'FAIL'} ${where(['tests', t, 'name'])} ${test.name}`];
    for (const m of mismatches) {
      const e = test.expect[m.expected] as (typeof test.expect)[number];
      const what = m.closest
        ? `expected alert differs (${m.differs.join(', ')})`
        : 'expected alert did not fire';
      lines.push(`  ${where(['tests', t, 'expect', m.expected])} ${what}:`, `    - ${formatExpected(e)}`);
      if (m.closest) lines.push(`    + ${formatObserved(m.closest, run.clock.start, e)}`);
    }
    if (unexpected.length) {
      // At the expect: key where the test has one, else at the test.
      const at = where(['tests', t, 'expect'], true);
      lines.push(
        `  ${at} ${unexpected.length === 1 ? 'an alert fired' : 'alerts fired'} that no expect: entry lists:`,
      );
      for (const o of unexpected) lines.push(`    + ${formatObserved(o, run.clock.start)}`);
    }
    results.push({ name: test.name, passed, lines });
  }
  return results;
}

function observed(atNs: bigint, alert: Alert): Observed {
  return {
    atNs,
    rule: alert.ruleId,
    accountId: alert.account?.id ?? '',
    accountName: alert.account?.name ?? '',
    state: alert.status,
    summary: ownSummary(alert.summary),
  };
}
