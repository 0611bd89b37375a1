import { z } from 'zod';
import { defineCondition, type WhenNode } from './shared/condition.js';

export const any = defineCondition({
  name: 'any',
  sources: ['transactions', 'rewards'],
  needsTrace: false,
  doc: 'At least one listed condition holds.',
  example: '[{ debit: "1000 hbar" }, { token_debit: { token_id: 0.0.456858, min: "1 unit" } }]',
  schema: (when) => z.array(when).min(1),
  compile: (value: WhenNode[], tools) => {
    const preds = value.map(tools.compileTree);
    return (f) => {
      let verdict: boolean | undefined = false;
      for (const p of preds) {
        const v = p(f);
        if (v === true) return true;
        if (v === undefined) verdict = undefined;
      }
      return verdict;
    };
  },
  explain: (value: WhenNode[], f, tools) => {
    const hit = value.find((n) => tools.holds(n, f));
    return hit ? tools.explainTree(hit, f) : 'one of the listed conditions';
  },
});
