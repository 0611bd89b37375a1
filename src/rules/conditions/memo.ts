import { z } from 'zod';
import { defineCondition } from '../condition.js';
import { MEMO_EVAL_LIMIT } from '../facts.js';

const Memo = z
  .object({
    contains: z.string().min(1).optional(),
    regex: z
      .string()
      .min(1)
      .refine(isValidRegex, { error: (i) => `invalid regular expression ${JSON.stringify(i.input)}` })
      .optional(),
    ignore_case: z.boolean().default(false),
  })
  .strict()
  .refine((m) => (m.contains === undefined) !== (m.regex === undefined), {
    error: 'set exactly one of contains or regex',
  });
type Memo = z.output<typeof Memo>;

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

/**
 * The decoded memo (base64 → UTF-8) contains a text or matches a regex. Only the first MEMO_EVAL_LIMIT characters
 * are examined and regexes run in unicode mode without the sticky/global state, bounding their cost.
 */
export const memo = defineCondition({
  name: 'memo',
  sources: ['transactions'],
  needsTrace: false,
  doc: 'The decoded memo contains a text or matches a regular expression (`ignore_case: true` for either).',
  example: '{ regex: "^(refund|payout)-\\\\d+$" }',
  schema: () => Memo,
  compile: (value: Memo) => {
    if (value.regex !== undefined) {
      const re = new RegExp(value.regex, value.ignore_case ? 'iu' : 'u');
      return (f) => re.test(f.memo().slice(0, MEMO_EVAL_LIMIT));
    }
    const needle = value.ignore_case ? (value.contains ?? '').toLowerCase() : (value.contains ?? '');
    return (f) => {
      const text = f.memo().slice(0, MEMO_EVAL_LIMIT);
      return (value.ignore_case ? text.toLowerCase() : text).includes(needle);
    };
  },
});
