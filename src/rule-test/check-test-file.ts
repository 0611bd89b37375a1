// What the test file says about the rules and accounts, checked against them before anything runs: expected
// alerts of rules that exist, accounts that are watched, an absolute start, a clock with a bounded number of steps.
import type { ConfigIssue } from '../config/config-error.js';
import { didYouMean } from '../config/did-you-mean.js';
import { locate } from '../config/locate.js';
import type { ParsedYaml } from '../config/parse-yaml.js';
import { sortIssues } from '../config/config-error.js';
import type { WatchedAccount } from '../accounts/watched-account.js';
import { payerOf } from './build-records.js';
import type { Input, TestFile, Tx } from './schema.js';
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
      for (const [key, message] of inputProblems(input, ctx.accounts))
        at(['tests', t, 'input', i, ...key], message);
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

/** A reward for an account that is not watched, a tx that reaches none, a verification without a contract. */
function inputProblems(input: Input, accounts: readonly WatchedAccount[]): [Path, string][] {
  const watched = new Set(accounts.map((a) => a.id));
  const out: [Path, string][] = [];
  const rewarded = input.reward && (input.reward.account ?? accounts[0]?.id);
  if (rewarded !== undefined && !watched.has(rewarded))
    out.push([['reward', 'account'], `account ${rewarded} is not watched; add it under accounts:`]);
  const tx = input.tx;
  if (tx && !reachesWatched(tx, watched, accounts[0]?.id ?? ''))
    out.push([
      ['tx'],
      'this tx reaches no watched account (none pays it or has an HBAR or token leg in it), so the daemon would never see it; check the account ids',
    ]);
  if (
    input.verification !== undefined &&
    !(tx?.type === 'CONTRACTCREATEINSTANCE' && tx.result === 'SUCCESS' && tx.entity_id)
  )
    out.push([
      ['verification'],
      'verification is the status of the contract a tx creates: give a tx with type: CONTRACTCREATEINSTANCE, result: SUCCESS and an entity_id',
    ]);
  return out;
}

// The accounts a transaction is tailed for (tail/global/match-account.ts): its payer, its HBAR and token legs.
function reachesWatched(tx: Tx, watched: ReadonlySet<string>, defaultPayer: string): boolean {
  const legs = [...Object.keys(tx.transfers), ...Object.values(tx.token_transfers).flatMap(Object.keys)];
  return [payerOf(tx, defaultPayer), ...legs].some((id) => watched.has(id));
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
