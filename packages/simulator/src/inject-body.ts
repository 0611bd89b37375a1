// The body of POST /_sim/inject: an InjectSpec as JSON, checked strictly. An unknown field is refused, not
// ignored: a test that misspells `transfers` would otherwise inject a plain transfer and wait for an alert that
// never comes. Amounts are integers of tinybars, as JSON strings beyond 2^53 (JSON numbers lose digits there).
import { z } from 'zod';
import type { InjectSpec } from './traffic-inject.js';

const Tinybars = z.union([
  z.string().regex(/^-?\d+$/, 'expected an integer of tinybars as a string, like "-5000000000"'),
  z
    .number()
    .int('expected an integer of tinybars')
    .refine(Number.isSafeInteger, 'beyond 2^53 a JSON number loses digits: give the amount as a string'),
]);

export const InjectBody = z.strictObject({
  type: z.string().min(1).optional(),
  payer: z.string().min(1).optional(),
  result: z.string().min(1).optional(),
  transfers: z.array(z.strictObject({ account: z.string().min(1), amount: Tinybars })).optional(),
  memo: z.string().optional(),
  fee: Tinybars.optional(),
  traceDepth: z.number().int().min(1).max(64).optional(),
  tag: z.string().optional(),
  wire: z.record(z.string(), z.unknown()).optional(),
});

/** The spec, or every problem as one line each (`transfers.0.amount: …`, `unknown field "tranfers" …`). */
export function parseInjectBody(text: string): InjectSpec | string[] {
  let data: unknown;
  try {
    data = JSON.parse(text === '' ? '{}' : text);
  } catch (err) {
    return [`not JSON: ${(err as Error).message}`];
  }
  const result = InjectBody.safeParse(data);
  if (result.success) return result.data;
  const known = Object.keys(InjectBody.shape).join(', ');
  return result.error.issues.map((issue) => {
    const at = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
    if (issue.code === 'unrecognized_keys') {
      const fields = issue.keys.map((k) => JSON.stringify(k)).join(', ');
      return `${at}unknown field ${fields}; the fields are ${issue.path.length > 0 ? 'account, amount' : known} (docs/simulator.md, "Injecting a transaction")`;
    }
    return `${at}${issue.message}`;
  });
}
