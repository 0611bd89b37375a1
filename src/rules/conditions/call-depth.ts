import { z } from 'zod';
import { defineCondition } from '../condition.js';

/** The deepest action of the call trace has `call_depth` ≥ N. Needs the trace (fetched on demand). */
export const callDepth = defineCondition({
  name: 'call_depth',
  sources: ['transactions'],
  needsTrace: true,
  doc: 'The deepest contract action has `call_depth` at least N (the trace is fetched only when the rest matched).',
  example: '5',
  schema: () =>
    z
      .number({ error: (i) => `expected a whole number like 5, got ${JSON.stringify(i.input)}` })
      .int()
      .min(1, 'expected a call depth of at least 1'),
  compile: (min: number) => (f) => {
    if (f.traces === undefined) return undefined;
    return f.traces.some((a) => a.call_depth >= min);
  },
  explain: (min: number, f) => {
    const depth = (f.traces ?? []).reduce((m, a) => Math.max(m, a.call_depth), 0);
    return `call depth ${depth} ≥ ${min}`;
  },
});
