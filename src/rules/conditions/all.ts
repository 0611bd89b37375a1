import { z } from 'zod';
import { defineCondition, type Predicate, type WhenNode } from './shared/condition.js';

/** Every listed condition holds; undefined (trace needed) wins over true, false wins over both. */
export function allOf(preds: readonly Predicate[]): Predicate {
  return (f) => {
    let verdict: boolean | undefined = true;
    for (const p of preds) {
      const v = p(f);
      if (v === false) return false;
      if (v === undefined) verdict = undefined;
    }
    return verdict;
  };
}

export const all = defineCondition({
  name: 'all',
  sources: ['transactions', 'rewards'],
  needsTrace: false,
  doc: 'Every listed condition holds (keys in one object are already AND-ed).',
  example: '[{ type: [CONTRACTCALL] }, { result: success }]',
  schema: (when) => z.array(when).min(1),
  compile: (value: WhenNode[], tools) => allOf(value.map(tools.compileTree)),
  explain: (value: WhenNode[], f, tools) => value.map((n) => tools.explainTree(n, f)).join(' and '),
});
