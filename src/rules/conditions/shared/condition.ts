// The fixed shape of a condition (one file per condition under conditions/, one line in conditions/registry.ts).
import type { z } from 'zod';
import type { Facts, Source } from '../../facts/facts.js';

/** true / false, or undefined when the answer needs call traces that were not fetched yet. */
export type Verdict = boolean | undefined;
export type Predicate = (facts: Facts) => Verdict;

export interface CompileTools {
  /** Compiles a nested condition tree (for all / any / not). */
  readonly compileTree: (node: WhenNode) => Predicate;
}

/** What a condition's `explain` gets to describe nested conditions (for all / any / not). */
export interface ExplainTools {
  /** The why-text of a nested condition tree for this record. */
  readonly explainTree: (node: WhenNode, facts: Facts) => string;
  /** Whether a nested tree holds for this record (any: which branch matched). */
  readonly holds: (node: WhenNode, facts: Facts) => boolean;
}

/** A `when:` object: condition name → its configuration; several keys are AND-ed. */
export type WhenNode = Readonly<Record<string, unknown>>;

export interface Condition<T = unknown> {
  readonly name: string;
  /** Record sources the condition understands; using it on another source is a load error. */
  readonly sources: readonly Source[];
  /** True when the condition reads call traces (they are fetched only when the rest of the rule matched). */
  readonly needsTrace: boolean;
  /** One line for rules/README.md and the JSON Schema. */
  readonly doc: string;
  /** A YAML example (the value under the condition's key), also checked by the registry test. */
  readonly example: string;
  /** The value schema; `when` is the whole condition-tree schema, for the combinators. */
  readonly schema: (when: z.ZodType<WhenNode>) => z.ZodType<T>;
  readonly compile: (value: T, tools: CompileTools) => Predicate;
  /**
   * The match in words with the record's values, e.g. `net debit 50,000 HBAR ≥ 10,000 HBAR` (the alert's "why").
   * Pure; called only for records that matched, so it may assume the condition held.
   */
  readonly explain: (value: T, facts: Facts, tools: ExplainTools) => string;
  /** What is valid but probably not meant (a name the service's tables of this version do not know). */
  readonly warnings?: (value: T) => readonly ConditionWarning[];
}

/** A doubt about a valid value, `at` a path inside the condition's value (`[2]`: its third item). */
export interface ConditionWarning {
  readonly at: readonly (string | number)[];
  readonly message: string;
}

export function defineCondition<T>(condition: Condition<T>): Condition {
  return condition as unknown as Condition;
}
