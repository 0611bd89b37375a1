// Checks the chart's PrometheusRule with promtool (Debian package prometheus): `promtool check rules` parses
// every PromQL expression and template, `promtool test rules` runs helm/tools/prometheus-rule-tests.yaml, which
// feeds synthetic series and asserts which alerts fire, with which labels and annotations.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

export const RULE_TESTS = resolve(fileURLToPath(new URL('./prometheus-rule-tests.yaml', import.meta.url)));

export interface PromtoolResult {
  readonly ok: boolean;
  readonly output: string;
}

export function promtoolAvailable(): boolean {
  return spawnSync('promtool', ['--version'], { encoding: 'utf8' }).status === 0;
}

/**
 * Writes the PrometheusRule's spec as a Prometheus rule file (rules.yaml) and runs promtool on it:
 * `check rules`, then `test rules` with the tests file when given.
 */
export function runPromtool(spec: { groups: unknown[] }, testsFile?: string): PromtoolResult {
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-rules-'));
  try {
    writeFileSync(join(dir, 'rules.yaml'), stringify({ groups: spec.groups }));
    const check = promtool(dir, ['check', 'rules', 'rules.yaml']);
    if (!check.ok || testsFile === undefined) return check;
    copyFileSync(testsFile, join(dir, 'tests.yaml'));
    return promtool(dir, ['test', 'rules', 'tests.yaml']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function promtool(cwd: string, args: string[]): PromtoolResult {
  const result = spawnSync('promtool', args, { cwd, encoding: 'utf8' });
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`;
  return { ok: result.status === 0, output: `promtool ${args.join(' ')}:\n${output}` };
}

/**
 * The Grafana dashboard's queries as recording rules, so that `promtool check rules` parses their PromQL; the
 * dashboard variables are replaced by values of the same type first.
 */
export function dashboardQueriesAsRules(dashboard: { panels?: { targets?: { expr?: string }[] }[] }): {
  groups: unknown[];
} {
  const exprs = (dashboard.panels ?? []).flatMap((p) => (p.targets ?? []).map((t) => t.expr ?? ''));
  const rules = exprs.map((expr, i) => ({
    record: `dashboard:query_${i}`,
    expr: expr.replaceAll('$__rate_interval', '5m').replace(/\$\{?(job|namespace)\}?/g, '.*'),
  }));
  return { groups: [{ name: 'grafana-dashboard', rules }] };
}

interface DashboardVariable {
  readonly name: string;
  readonly allValue?: string;
}

/**
 * Evaluates the dashboard's first queries with promtool on series that carry no `namespace` label (Prometheus
 * scraping the pod or Service itself, without the Operator), each variable set to its "All" value: each must
 * still return the series. Returns promtool's verdict.
 */
export function dashboardWithoutNamespace(dashboard: {
  templating?: { list?: DashboardVariable[] };
  panels?: { targets?: { expr?: string }[] }[];
}): PromtoolResult {
  const all = new Map((dashboard.templating?.list ?? []).map((v) => [v.name, v.allValue]));
  const expr = (i: number) =>
    (dashboard.panels?.[i]?.targets?.[0]?.expr ?? '').replace(
      /\$\{?(job|namespace)\}?/g,
      (_m, name: string) => {
        const value = all.get(name);
        if (value === undefined) throw new Error(`dashboard variable ${name} has no allValue`);
        return value;
      },
    );
  const tests = {
    rule_files: [],
    evaluation_interval: '1m',
    tests: [
      {
        interval: '1m',
        input_series: [
          { series: 'up{job="ledger-sentinel", instance="10.0.0.7:9464"}', values: '1x5' },
          {
            series:
              'ledger_sentinel_config_last_reload_successful{job="ledger-sentinel", instance="10.0.0.7:9464"}',
            values: '1x5',
          },
        ],
        promql_expr_test: [
          { expr: expr(0), eval_time: '5m', exp_samples: [{ labels: '{}', value: 1 }] },
          { expr: expr(1), eval_time: '5m', exp_samples: [{ labels: '{}', value: 1 }] },
        ],
      },
    ],
  };
  const dir = mkdtempSync(join(tmpdir(), 'dashboard-queries-'));
  try {
    writeFileSync(join(dir, 'tests.yaml'), stringify(tests));
    return promtool(dir, ['test', 'rules', 'tests.yaml']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
