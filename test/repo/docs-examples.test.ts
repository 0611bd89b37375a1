// Every YAML example in README.md, docs/*.md and rules/README.md is what it claims to be: config files and
// fragments pass the daemon's config schema, rule files the rule loader, `when:`/`window:` examples their
// schemas, and chart values pass values.schema.json and render a config that `ledger-sentinel check --offline`
// accepts. The convention (markers, inference) is in docs/architecture.md, "Working agreements"; a failure
// names the file, the line of the block and what is wrong.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, findGo } from '../../helm/tools/build-renderer.js';
import { coalesceValues, compileValuesSchema, readValues } from '../../helm/tools/chart-values.js';
import { renderChart } from '../../helm/tools/render-chart.js';
import { checkPodFiles, writePodFiles } from '../../helm/tools/rendered-config.js';
import { unmountedFileRefs } from '../../helm/tools/pod-file-refs.js';
import { REPO_DIR } from '../helpers/shared.js';
import { checkExample, docExamples, examplesOf, type DocExample } from './docs-examples.js';

const DOCS = [
  'README.md',
  'rules/README.md',
  ...readdirSync(join(REPO_DIR, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const examples = docExamples(DOCS);
const label = (e: DocExample) => `${e.file}:${e.line} (${e.kind ?? 'unknown'})`;
const goMissing = findGo(process.env) === undefined && process.env.CI !== 'true';

describe('YAML examples in the docs', () => {
  it('are found, and every one has a kind (a marker, or top-level keys that say it)', () => {
    const unknown = examples.filter((e) => e.kind === undefined).map((e) => `${label(e)}: ${e.why}`);

    expect(unknown).toEqual([]);
    expect(examples.filter((e) => e.kind === 'values').length).toBeGreaterThan(3);
    expect(examples.filter((e) => e.kind === 'rules').length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    [
      'an unmarked block of unknown keys',
      '<!-- -->\n```yaml\nfoo: 1\n```\n',
      /^doc\.md:2 \(unknown\): top-level keys foo are neither config sections nor rules; add <!-- docs-example: KIND -->/,
    ],
    [
      'a notifier with a key it does not have (the old docs/deployment.md "Secrets" example)',
      '\n```yaml\nnotifiers:\n  ops-email: { kind: email, smtp: { host: smtp.example.com } }\n```\n',
      /^doc\.md:4:\d+ notifiers\.ops-email/,
    ],
    [
      'a rule without a summary',
      '\n```yaml\nrules:\n  - id: x\n    when: { result: fail }\n```\n',
      /^doc\.md:4:\d+ .*summary/,
    ],
  ])('reports %s with the file, the line and what is wrong', (_label, markdown, expected) => {
    const [example] = examplesOf('doc.md', markdown);

    const problems =
      example!.kind === undefined ? [`${label(example!)}: ${example!.why}`] : checkExample(example!);

    expect(problems.join('\n')).toMatch(expected);
  });

  it.each(
    examples.filter((e) => e.kind !== 'values' && e.kind !== 'other').map((e) => [label(e), e] as const),
  )('%s is valid', (_label, example) => {
    expect(checkExample(example)).toEqual([]);
  });

  describe('chart values', () => {
    const values = examples.filter((e) => e.kind === 'values');
    const validate = compileValuesSchema();
    let binary: string | undefined;

    beforeAll(() => {
      if (!goMissing) binary = buildRenderer({ env: process.env });
    }, 180_000);

    it.each(values.map((e) => [label(e), e] as const))(
      '%s passes values.schema.json and check --offline',
      async (_label, example) => {
        const merged = coalesceValues(readValues(), (parse(example.text) ?? {}) as Record<string, unknown>);

        const ok = validate(merged);

        const schema = (validate.errors ?? []).map(
          (e) => `${label(example)}: ${e.instancePath || '/'} ${e.message ?? ''}`,
        );
        expect(schema).toEqual([]);
        expect(ok).toBe(true);
        if (!binary) return; // no Go here: rendering skipped (helm.test.ts says how to install it)
        const file = join(mkdtempSync(join(tmpdir(), 'docs-values-')), 'values.yaml');
        writeFileSync(file, example.text);
        const rendered = renderChart({ binary, valuesFiles: [file], strict: true });
        expect(unmountedFileRefs(rendered).map((p) => `${label(example)}: ${p}`)).toEqual([]);
        const outcome = await checkPodFiles(writePodFiles(rendered));
        expect(
          outcome.code,
          `${label(example)}: the rendered config fails ledger-sentinel check --offline:\n${outcome.output}`,
        ).toBe(0);
      },
    );
  });
});
