// The "why" of an alert: the rule's condition tree in words, with the values of the record that matched
// (docs/notifiers.md, "Why it fired"). Pure; each condition describes itself (Condition.explain).
import type { ExplainTools, Predicate, WhenNode } from '../conditions/shared/condition.js';
import { compileTree } from '../load/compile.js';
import { CONDITIONS_BY_NAME } from '../conditions/registry.js';
import type { Facts } from '../facts/facts.js';

/** Longest why-text kept; a long `any` list of memo regexes must not make a long alert. */
export const WHY_MAX = 500;

const tools: ExplainTools = { explainTree, holds };

/** The conditions of a `when:` object that the record met, in words, joined with "and". */
export function explainTree(node: WhenNode, facts: Facts): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(node)) {
    if (value === undefined) continue;
    const condition = CONDITIONS_BY_NAME.get(name);
    parts.push(condition ? condition.explain(value, facts, tools) : name);
  }
  const text = parts.join(' and ');
  return text.length > WHY_MAX ? `${text.slice(0, WHY_MAX - 1)}…` : text;
}

// Compiled once per nested tree: compiling builds regexes, and an alert storm must not rebuild them per alert.
const compiled = new WeakMap<WhenNode, Predicate>();

function holds(node: WhenNode, facts: Facts): boolean {
  let predicate = compiled.get(node);
  if (!predicate) compiled.set(node, (predicate = compileTree(node)));
  return predicate(facts) === true;
}
