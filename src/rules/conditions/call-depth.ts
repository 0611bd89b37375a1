import { z } from 'zod';
import { defineCondition } from './shared/condition.js';

const MESSAGE =
  'expected a call depth like 5 (it matches a depth of 5 or more), ">= 5" or "> 4" (the same), ' +
  'not "< 5" or "= 5": the condition asks whether the call trace goes at least this deep';

/** `5`, `">= 5"`, `"≥ 5"` or `"> 4"`: all mean the deepest action's call_depth is at least 5. */
export function parseCallDepth(input: unknown): number | undefined {
  if (typeof input === 'number') return Number.isSafeInteger(input) && input >= 1 ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const m = /^\s*(>=|≥|>)?\s*(\d{1,6})\s*$/.exec(input);
  if (!m) return undefined;
  const depth = Number(m[2]) + (m[1] === '>' ? 1 : 0);
  return depth >= 1 ? depth : undefined;
}

/** The deepest action of the call trace has `call_depth` ≥ N. Needs the trace (fetched on demand). */
export const callDepth = defineCondition({
  name: 'call_depth',
  sources: ['transactions'],
  needsTrace: true,
  doc: 'The deepest contract action has `call_depth` at least N: `5`, `">= 5"` and `"> 4"` all mean 5 or deeper (the trace is fetched only when the rest matched).',
  example: '5',
  schema: () =>
    z.union([z.number(), z.string()], { error: MESSAGE }).transform((value, ctx) => {
      const depth = parseCallDepth(value);
      if (depth !== undefined) return depth;
      ctx.addIssue({ code: 'custom', message: `${MESSAGE}; got ${JSON.stringify(value)}`, input: value });
      return z.NEVER;
    }),
  compile: (min: number) => (f) => {
    if (f.traces === undefined) return undefined;
    return f.traces.some((a) => a.call_depth >= min);
  },
  explain: (min: number, f) => {
    const depth = (f.traces ?? []).reduce((m, a) => Math.max(m, a.call_depth), 0);
    return `call depth ${depth} ≥ ${min}`;
  },
});
