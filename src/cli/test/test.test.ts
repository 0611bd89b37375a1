// `ledger-sentinel test`: the shipped example rules pass their tests, and a passing, a failing and an invalid test
// file give their exit code and their exact output (file:line:col of the test and of each expected alert).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadTestFile } from '../../rule-test/load-test-file.js';
import { expandPaths } from '../../rules/load/expand-paths.js';
import { loadRules } from '../../rules/load/load-rules.js';
import { REPO_DIR } from '../../../test/helpers/shared.js';
import { startCli } from '../../../test/integration/cli-harness.js';

const RULE = `rules:
  - id: large-debit
    when: { debit: '10000 hbar' }
    summary: '{{account.name}}: {{abs_amount_hbar}} HBAR debited'
    notify: [ops-slack]
    throttle: 1m
`;
const HEAD = `rule_files: [rules.yaml]
accounts:
  - { id: 0.0.1234, name: treasury-hot }
start: 2026-01-01T00:00:00Z
tests:
`;
const DEBIT = `      - { at: +0s, tx: { transfers: { 0.0.1234: -20000 hbar, 0.0.5555: +20000 hbar } } }`;

describe('ledger-sentinel test', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-sentinel-ruletest-'));
    writeFileSync(join(dir, 'rules.yaml'), RULE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function run(files: Record<string, string>, argv = Object.keys(files)) {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const cli = startCli(['test', ...argv], { cwd: dir });
    const code = await cli.done;
    return { code, out: cli.stdout(), err: cli.stderr() };
  }

  it('passes the tests shipped with the example rules, one ok line per test', async () => {
    const files = readdirSync(join(REPO_DIR, 'rules/tests')).filter((f) => f.endsWith('.test.yaml'));
    const names = files.flatMap((f) =>
      [...readFileSync(join(REPO_DIR, 'rules/tests', f), 'utf8').matchAll(/^ {2}- name: (.*)$/gm)].map(
        (m) => `rules/tests/${f} ${m[1] ?? ''}`,
      ),
    );

    const cli = startCli(['test', 'rules/tests/*.test.yaml'], { cwd: REPO_DIR });
    const code = await cli.done;

    expect(cli.stderr()).toBe('');
    expect(code).toBe(0);
    const lines = cli.stdout().trimEnd().split('\n');
    expect(
      lines.filter((l) => l.startsWith('ok   ')).map((l) => l.replace(/^ok {3}(\S+?):\d+:\d+ /, '$1 ')),
    ).toEqual(names);
    expect(lines.at(-1)).toBe(`${names.length} tests in ${files.length} files: ${names.length} passed`);
  });

  it('has a test that fires every example rule, and the rule loader does not take the tests for rules', () => {
    const rules = loadRules({
      paths: [join(REPO_DIR, 'rules/*.yaml')],
      env: {},
      knownNotifiers: 'any',
      accounts: [],
    });
    const expected = readdirSync(join(REPO_DIR, 'rules/tests')).flatMap((f) => {
      const loaded = loadTestFile(join('rules/tests', f), { cwd: REPO_DIR, env: {} });
      return loaded.ok ? loaded.loaded.spec.tests.flatMap((t) => t.expect) : [];
    });

    const untested = rules.ok
      ? rules.rules.filter((r) => !expected.some((e) => e.rule === r.rule.id && e.state === 'firing'))
      : [];

    expect(rules.ok).toBe(true);
    expect(untested.map((r) => r.rule.id)).toEqual([]);
    expect(expandPaths([join(REPO_DIR, 'rules/*.yaml')]).files.filter((f) => f.includes('tests'))).toEqual(
      [],
    );
  });

  it('passes the example in rules/README.md, "Testing rules"', async () => {
    const readme = readFileSync(join(REPO_DIR, 'rules/README.md'), 'utf8');
    const example = /## Testing rules[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)?.[1];
    mkdirSync(join(dir, 'tests'));
    writeFileSync(join(dir, 'large-debit.yaml'), readFileSync(join(REPO_DIR, 'rules/large-debit.yaml')));

    const { code, out } = await run({ 'tests/example.test.yaml': example ?? '' });

    expect(code).toBe(0);
    expect(out).toContain('2 tests in 1 file: 2 passed');
  });

  it('exits 0 on a passing file and prints the test with its position', async () => {
    const file = `${HEAD}  - name: fires
    input:
${DEBIT}
    expect:
      - { at: +0s, rule: large-debit, account: 0.0.1234, state: firing, summary: 'treasury-hot: 20000 HBAR debited' }
`;

    const { code, out, err } = await run({ 'a.test.yaml': file });

    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toBe('ok   a.test.yaml:6:11 fires\n1 test in 1 file: 1 passed\n');
  });

  it('exits 1 on a failing test and prints the diff at each expected alert', async () => {
    const file = `${HEAD}  - name: quiet
    input:
${DEBIT}
      - { at: +1m, tx: { transfers: { 0.0.1234: -30000 hbar, 0.0.5555: +30000 hbar } } }
    expect:
      - { at: +0s, rule: large-debit, account: treasury-hot, state: firing, summary: 'treasury-hot: 2000 HBAR debited' }
      - { at: +0s, rule: large-debit, state: resolved }
  - name: passes
    expect: []
`;

    const { code, out } = await run({ 'b.test.yaml': file });

    expect(code).toBe(1);
    expect(out).toBe(
      [
        'FAIL b.test.yaml:6:11 quiet',
        '  b.test.yaml:11:9 expected alert differs (summary):',
        "    - { at: +0s, rule: large-debit, account: treasury-hot, state: firing, summary: 'treasury-hot: 2000 HBAR debited' }",
        "    + { at: +0s, rule: large-debit, account: treasury-hot, state: firing, summary: 'treasury-hot: 20000 HBAR debited' }",
        '  b.test.yaml:12:9 expected alert differs (state, at):',
        '    - { at: +0s, rule: large-debit, state: resolved }',
        "    + { at: +1m, rule: large-debit, account: 0.0.1234, state: firing, summary: 'treasury-hot: 30000 HBAR debited' }",
        'ok   b.test.yaml:13:11 passes',
        '2 tests in 1 file: 1 passed, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('lists alerts nobody expected at the expect: key, ledger text escaped, in a form to paste under it', async () => {
    writeFileSync(
      join(dir, 'memo.yaml'),
      "rules:\n  - id: memo\n    summary: '{{account.name}}: {{memo}}'\n    throttle: 1s\n",
    );
    const file = `${HEAD.replace('rules.yaml', 'memo.yaml')}  - name: surprise
    input:
      - { at: '1767225600.000000001', tx: { memo: "a\\u202eb\\nc" } }
      - { at: 2026-01-01T00:00:02.5Z, tx: { memo: "it's" } }
    expect: []
`;

    const { code, out } = await run({ 'c.test.yaml': file });

    expect(code).toBe(1);
    expect(out.split('\n').slice(0, 4)).toEqual([
      'FAIL c.test.yaml:6:11 surprise',
      '  c.test.yaml:10:5 alerts fired that no expect: entry lists:',
      '    + { at: +0.000000001s, rule: memo, account: 0.0.1234, state: firing, summary: "treasury-hot: a\\u202eb\\nc" }',
      "    + { at: +2.5s, rule: memo, account: 0.0.1234, state: firing, summary: 'treasury-hot: it''s' }",
    ]);
  });

  it('exits 2 on an invalid file with every error at its file:line:col, and runs the valid files', async () => {
    const bad = `${HEAD}  - name: typos
    input:
      - { at: soon, tx: { tpye: CRYPTOTRANSFER, transfers: { 0.0.1234: -20000 hbr } } }
    expect:
      - { rule: large-debit, state: fired }
`;
    const good = `${HEAD}  - name: quiet
`;

    const { code, out, err } = await run({ 'd.test.yaml': bad, 'e.test.yaml': good });

    expect(code).toBe(2);
    expect(err).toBe(
      [
        'd.test.yaml:8:15 tests.0.input.0.at: expected a time like 2026-01-01T00:00:00Z, "1767225600.000000000" or +30s, got "soon"',
        'd.test.yaml:8:27 tests.0.input.0.tx.tpye: unknown key "tpye"; did you mean "type"?',
        'd.test.yaml:8:72 tests.0.input.0.tx.transfers.0.0.1234: expected a signed amount like "-20000 hbar", "+0.5 hbar" or "-5 tinybar", got "-20000 hbr"',
        'd.test.yaml:10:37 tests.0.expect.0.state: expected one of firing, resolved, got "fired"',
        '',
      ].join('\n'),
    );
    expect(out).toBe('ok   e.test.yaml:6:11 quiet\n1 test in 2 files: 1 passed; 1 file invalid\n');
  });

  it('exits 2 on what the file says about the rules: an unknown rule, an unwatched account, a bad rule file', async () => {
    const file = `${HEAD}  - name: names
    input:
      - { at: +0s, reward: { account: 0.0.9, amount: 1 hbar } }
      - { at: +1s, tx: { transfers: { 0.0.5555: -1 hbar, 0.0.6666: +1 hbar } } }
    expect:
      - { rule: large-debt, account: treasury-hott, state: firing }
`;
    writeFileSync(
      join(dir, 'broken.yaml'),
      'rules:\n  - id: x\n    summary: s\n    when: { debit: lots }\n    accounts: { ids: [0.0.7] }\n',
    );

    const semantic = await run({ 'f.test.yaml': file });
    const ruleFile = await run({ 'g.test.yaml': file.replace('[rules.yaml]', '[broken.yaml]') });

    expect(semantic.code).toBe(2);
    expect(semantic.err.split('\n')).toEqual([
      'f.test.yaml:8:39 tests.0.input.0.reward.account: account 0.0.9 is not watched; add it under accounts:',
      'f.test.yaml:9:24 tests.0.input.1.tx: this tx reaches no watched account (none pays it or has an HBAR or token leg in it), so the daemon would never see it; check the account ids',
      'f.test.yaml:11:17 tests.0.expect.0.rule: no rule "large-debt" in rule_files; did you mean "large-debit"?',
      'f.test.yaml:11:38 tests.0.expect.0.account: no watched account "treasury-hott" (by id or name); did you mean "treasury-hot"?',
      '',
    ]);
    expect(ruleFile.code).toBe(2);
    expect(ruleFile.err).toMatch(/^broken\.yaml:4:20 when\.debit: expected an amount like "10000 hbar"/);
    expect(ruleFile.err).toContain(
      'broken.yaml:5:23 accounts.ids.0: account 0.0.7 is not watched; add it under accounts: in the test file or remove it here',
    );
  });

  it('prints its usage for --help', async () => {
    const cli = startCli(['test', '--help'], { cwd: dir });

    expect(await cli.done).toBe(0);
    expect(cli.stdout()).toContain('Usage: ledger-sentinel test <file>...');
  });

  it.each([
    [[], 'name the test files'],
    [['missing-*.yaml'], 'missing-*.yaml: matches no file'],
    [['--json'], 'unknown option --json'],
  ])('exits 2 on bad usage: %j', async (argv, message) => {
    const { code, err } = await run({}, argv);

    expect(code).toBe(2);
    expect(err).toContain(message);
  });
});
