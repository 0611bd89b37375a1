// What loading rule files produces and the engine reads: compiled rules and the set of them (compile.ts builds
// it). Types only, so every part of the engine can import it without importing the compiler.
import type { Predicate, WhenNode } from '../conditions/shared/condition.js';
import type { Source } from '../facts/facts.js';
import type { Severity } from '../alert/alert.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';

export interface CompiledWindow {
  readonly kind: 'count' | 'debit_sum' | 'credit_sum' | 'absent';
  readonly durationNs: bigint;
  /** Matches (count) or tinybars (sums) that make the window fire. */
  readonly threshold: bigint;
}

export interface CompiledRule {
  readonly id: string;
  readonly source: Source;
  readonly severity: Severity;
  readonly labels: Readonly<Record<string, string>>;
  readonly notify: readonly string[];
  readonly throttleNs: bigint;
  readonly groupBy: readonly string[];
  readonly window: CompiledWindow | undefined;
  readonly verifyContracts: boolean;
  /** Resolved account ids, or undefined for every watched account. */
  readonly accountIds: ReadonlySet<string> | undefined;
  readonly predicate: Predicate;
  /** The validated condition tree the predicate was built from (index/pushdown.ts reads it). */
  readonly when: WhenNode;
  readonly summary: string;
  readonly description: string;
}

export interface RuleSet {
  readonly rules: readonly CompiledRule[];
  readonly bySource: Readonly<Record<Source, readonly CompiledRule[]>>;
  readonly accounts: readonly WatchedAccount[];
  /**
   * Tokens whose facts a condition needs to decide (an amount in tokens or a symbol without `decimals:`): the
   * pipeline reads them before it evaluates a record moving them.
   */
  readonly factsTokens?: ReadonlySet<string>;
  /** The explorer link of a record (alert-content/view.ts), '' without an explorer URL template. */
  readonly explorerLink: (record: object) => string;
  /** The explorer link of an account, '' or absent without an account URL template. */
  readonly accountLink?: (account: { readonly id: string; readonly account: string }) => string;
}
