// The values the rule-test harness hands from step to step and to `ledger-sentinel test` (cli/test): a loaded
// test file, the alerts one test sent, an alert as a test compares it, and one test's result. Types only, in a
// leaf: every file of the harness may import them, and nothing here imports a file that imports this one.
import type { ParsedYaml } from '../config/parse-yaml.js';
import type { Alert } from '../rules/alert/alert.js';
import type { RuleSet } from '../rules/load/compile.js';
import type { WatchedAccount } from '../accounts/watched-account.js';
import type { TestFile } from './schema.js';
import type { TestClock } from './test-clock.js';

export interface LoadedTestFile {
  /** As given (relative to the working directory), for messages. */
  readonly file: string;
  readonly parsed: ParsedYaml;
  readonly spec: TestFile;
  readonly ruleSet: RuleSet;
  readonly accounts: readonly WatchedAccount[];
}

export interface SentAlert {
  /** When the pipeline sent it: the record's time, or the clock step's (ticks are whole milliseconds). */
  readonly atNs: bigint;
  readonly alert: Alert;
}

export interface TestRun {
  readonly clock: TestClock;
  readonly sent: SentAlert[];
}

/** A sent alert as a test compares it with what it expects. */
export interface Observed {
  readonly atNs: bigint;
  readonly rule: string;
  readonly accountId: string;
  readonly accountName: string;
  readonly state: 'firing' | 'resolved';
  /** The rule's own summary template, rendered (own-summary.ts). */
  readonly summary: string;
}

export interface TestResult {
  readonly name: string;
  readonly passed: boolean;
  /** The `ok` / `FAIL` line, then the diff lines of a failure. */
  readonly lines: readonly string[];
}
