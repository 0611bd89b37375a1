import { defineCondition, type WhenNode } from './shared/condition.js';

export const not = defineCondition({
  name: 'not',
  sources: ['transactions', 'rewards'],
  needsTrace: false,
  doc: 'The nested condition does not hold.',
  example: '{ memo: { contains: "payroll" } }',
  schema: (when) => when,
  compile: (value: WhenNode, tools) => {
    const inner = tools.compileTree(value);
    return (f) => {
      const v = inner(f);
      return v === undefined ? undefined : !v;
    };
  },
  explain: (value: WhenNode, f, tools) => `not (${tools.explainTree(value, f)})`,
});
