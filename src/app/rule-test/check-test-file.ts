// What the test file says about the rules and accounts, checked against them before anything runs: expected
// alerts of rules that exist, accounts that are watched, an absolute start, a clock with a bounded number of steps.
import type { ConfigIssue } from '../../config/config-error.js';
import { didYouMean } from '../../config/did-you-mean.js';
import { locate } from '../../config/locate.js';
import type { ParsedYaml } from '../../config/parse-yaml.js';
import { sortIssues } from '../../config/config-error.js';
import type { WatchedAccount } from '../../tail/watched-account.js';
import type { TestFile } from './schema.js';
import { clockOf, MAX_STEPS } from './test-clock.js';
import type { WrittenTime } from './test-values.js';

export interface CheckContext {
  readonly file: string;
  readonly parsed: ParsedYaml;
  readonly spec: TestFile;
  readonly accounts: readonly WatchedAccount[];
  readonly rules: readonly { readonly id: string; readonly enabled: boolean }[];
}

type Path = (string | number)[];

export function checkTestFile(ctx: CheckContext): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const at = (path: Path, message: string) => {
    const offset = locate(ctx.parsed.documents[0], path);
    const { line, col } = ctx.parsed.lines.linePos(offset);
    issues.push({ file: ctx.file, line, col, path: path.join('.'), message });
  };
  checkStart(ctx.spec.start, ['start'], at);
  ctx.spec.tests.forEach((test, t) => {
    checkStart(test.start, ['tests', t, 'start'], at);
    test.input.forEach((input, i) => {
      const account = input.reward && (input.reward.account ?? ctx.accounts[0]?.id);
      if (account !== undefined && !ctx.accounts.some((a) => a.id === account))
        at(
          ['tests', t, 'input', i, 'reward', 'account'],
          `account ${account} is not watched; add it under accounts:`,
        );
      const tx = input.tx;
      if (
        input.verification !== undefined &&
        !(tx?.type === 'CONTRACTCREATEINSTANCE' && tx.result === 'SUCCESS' && tx.entity_id)
      )
        at(
          ['tests', t, 'input', i, 'verification'],
          'verification is the status of the contract a tx creates: give a tx with type: CONTRACTCREATEINSTANCE, result: SUCCESS and an entity_id',
        );
    });
    test.expect.forEach((e, i) => {
      const problem = ruleProblem(e.rule, ctx.rules);
      if (problem) at(['tests', t, 'expect', i, 'rule'], problem);
      if (e.account !== undefined && !ctx.accounts.some((a) => a.id === e.account || a.name === e.account))
        at(['tests', t, 'expect', i, 'account'], accountProblem(e.account, ctx.accounts));
    });
    const clock = clockOf(test, ctx.spec);
    const steps = (clock.end - clock.start) / clock.interval;
    if (steps > MAX_STEPS)
      at(
        ['tests', t, test.eval_interval ? 'eval_interval' : 'name'],
        `the clock would take ${steps} steps of eval_interval to reach the last time; at most ${MAX_STEPS}: set a longer eval_interval`,
      );
  });
  return sortIssues(issues);
}

function checkStart(start: WrittenTime | undefined, path: Path, at: (p: Path, m: string) => void): void {
  if (start?.kind === 'after')
    at(path, `expected an absolute time like 2026-01-01T00:00:00Z; "+<span>" times count from start itself`);
}

function ruleProblem(id: string, rules: CheckContext['rules']): string | undefined {
  const rule = rules.find((r) => r.id === id);
  if (rule) return rule.enabled ? undefined : `rule "${id}" is disabled (enabled: false), so it never fires`;
  const guess = didYouMean(
    id,
    rules.map((r) => r.id),
  );
  return `no rule "${id}" in rule_files; ${guess ? `did you mean "${guess}"?` : `the rules are: ${rules.map((r) => r.id).join(', ')}`}`;
}

function accountProblem(account: string, accounts: readonly WatchedAccount[]): string {
  const guess = didYouMean(account, [...accounts.map((a) => a.name), ...accounts.map((a) => a.id)]);
  return `no watched account "${account}" (by id or name); ${guess ? `did you mean "${guess}"?` : 'add it under accounts:'}`;
}
