// Validated rule configs → a RuleSet: predicates built once, account selectors resolved, templates kept.
import type { Predicate, WhenNode } from '../conditions/shared/condition.js';
import { allOf } from '../conditions/all.js';
import { CONDITIONS_BY_NAME } from '../conditions/registry.js';
import type { Accounts, Rule, Window } from './schema.js';
import { compileTemplate } from '../template/render-template.js';
import { ownValue } from '../../config/labels.js';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import type { CompiledRule, CompiledWindow, RuleSet } from './rule-set.js';

// The compiled shapes live in rule-set.ts, a leaf every part of the engine reads; re-exported for compileRules' callers.
export type { CompiledRule, CompiledWindow, RuleSet } from './rule-set.js';

export interface CompileContext {
  readonly accounts: readonly WatchedAccount[];
  /** Mustache template of a record's explorer link, e.g. https://hashscan.io/mainnet/transaction/{{consensus_timestamp}}. */
  readonly explorerUrl?: string;
  /** Mustache template of an account's explorer link over `{{id}}` (or `{{account}}`). */
  readonly accountUrl?: string;
}

const MS_TO_NS = 1_000_000n;

export function compileRules(rules: readonly Rule[], ctx: CompileContext): RuleSet {
  const compiled = rules.filter((r) => r.enabled).map((r) => compileRule(r, ctx));
  return {
    rules: compiled,
    bySource: {
      transactions: compiled.filter((r) => r.source === 'transactions'),
      rewards: compiled.filter((r) => r.source === 'rewards'),
    },
    accounts: ctx.accounts,
    factsTokens: tokensNeedingFacts(compiled.map((r) => r.when)),
    explorerLink: ctx.explorerUrl ? compileTemplate(ctx.explorerUrl) : () => '',
    accountLink: ctx.accountUrl ? compileTemplate(ctx.accountUrl) : () => '',
  };
}

function compileRule(rule: Rule, ctx: CompileContext): CompiledRule {
  return {
    id: rule.id,
    source: rule.source,
    severity: rule.severity,
    labels: rule.labels,
    notify: rule.notify,
    throttleNs: BigInt(rule.throttle) * MS_TO_NS,
    groupBy: rule.group_by,
    window: rule.window && compileWindow(rule.window),
    verifyContracts: rule.verify_contracts,
    accountIds: resolveAccounts(rule.accounts, ctx.accounts),
    predicate: compileTree(rule.when),
    when: rule.when,
    summary: rule.summary,
    description: rule.description,
  };
}

/** Compiles a `when:` object; its keys are AND-ed, in a cheap-first order (trace conditions last). */
export function compileTree(node: WhenNode): Predicate {
  const entries = Object.entries(node).filter(([, v]) => v !== undefined);
  entries.sort(([a], [b]) => Number(traceFirst(a)) - Number(traceFirst(b)));
  const preds = entries.map(([name, value]) => {
    const condition = CONDITIONS_BY_NAME.get(name);
    if (!condition) throw new Error(`unknown condition ${name}: the schema should have rejected it`);
    return condition.compile(value, { compileTree });
  });
  return preds.length === 1 && preds[0] ? preds[0] : allOf(preds);
}

function traceFirst(name: string): boolean {
  return CONDITIONS_BY_NAME.get(name)?.needsTrace ?? false;
}

function compileWindow(w: Window): CompiledWindow {
  const durationNs = BigInt(w.duration) * MS_TO_NS;
  if (w.count !== undefined) return { kind: 'count', durationNs, threshold: BigInt(w.count) };
  if (w.debit_sum !== undefined) return { kind: 'debit_sum', durationNs, threshold: w.debit_sum };
  if (w.credit_sum !== undefined) return { kind: 'credit_sum', durationNs, threshold: w.credit_sum };
  return { kind: 'absent', durationNs, threshold: 0n };
}

/** ids ∪ names ∪ label matches (all given labels equal); `all` → undefined (every watched account). */
export function resolveAccounts(
  sel: Accounts,
  accounts: readonly WatchedAccount[],
): ReadonlySet<string> | undefined {
  if (sel === 'all') return undefined;
  const ids = new Set(sel.ids ?? []);
  const names = new Set(sel.names ?? []);
  const labels = sel.labels && Object.entries(sel.labels);
  for (const a of accounts) {
    if (names.has(a.name)) ids.add(a.id);
    if (labels && labels.every(([k, v]) => ownValue(a.labels, k) === v)) ids.add(a.id);
  }
  return ids;
}

/** Token ids of the pending token amounts (conditions/shared/token-amount.ts) anywhere in the condition trees. */
function tokensNeedingFacts(trees: readonly unknown[]): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (typeof node !== 'object' || node === null || depth > 64) return;
    const v = node as { token_id?: unknown; quantity?: unknown };
    if (typeof v.token_id === 'string' && typeof v.quantity === 'object' && v.quantity !== null)
      found.add(v.token_id);
    for (const child of Object.values(node)) visit(child, depth + 1);
  };
  trees.forEach((tree) => visit(tree, 0));
  return found;
}
