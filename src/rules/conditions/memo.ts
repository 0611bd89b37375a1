import { z } from 'zod';
import { defineCondition } from './shared/condition.js';
import { compileRegex, type RuleRegex } from './shared/compile-regex.js';

const Memo = z
  .object({
    contains: z.string().min(1).optional(),
    regex: z
      .string()
      .min(1)
      .meta({
        description:
          'A regular expression in JavaScript syntax, run on RE2 (linear time): no lookaround, no backreferences, counted repetitions up to 100, at most 256 characters (rules/README.md, "Regular expressions").',
      })
      .optional(),
    ignore_case: z.boolean().default(false),
  })
  .strict()
  .refine((m) => (m.contains === undefined) !== (m.regex === undefined), {
    error: 'set exactly one of contains or regex',
  })
  .superRefine((m, ctx) => {
    // Compiled with the flags it will run with: case folding can make a program too large for RE2.
    if (m.regex === undefined) return;
    const compiled = compileRegex(m.regex, m.ignore_case ? 'i' : '');
    if (!compiled.ok)
      ctx.addIssue({
        code: 'custom',
        path: ['regex'],
        message: `invalid regular expression ${JSON.stringify(m.regex)}: ${compiled.reason}`,
      });
  });
type Memo = z.output<typeof Memo>;

/**
 * The schema has accepted `source`, so it compiles; RE2 (shared/compile-regex.ts) keeps matching linear in the
 * memo.
 */
function ruleRegex(source: string, ignoreCase: boolean): RuleRegex {
  const compiled = compileRegex(source, ignoreCase ? 'i' : '');
  if (!compiled.ok) throw new Error(`memo regex passed validation but does not compile: ${compiled.reason}`);
  return compiled.regex;
}

/** Characters that stand for themselves in a unicode-mode regex (outside classes and groups). */
const LITERAL = /^[A-Za-z0-9 _\-:,;=@#%&!~'"<>]$/;

/**
 * The text every match of a case-sensitive regex starts with: the literal characters after a leading `^`
 * (`^refund-\d+` → `refund-`), '' when unknown. A quantifier after the last one makes it optional, so it is
 * dropped; any `|` (a top-level alternative escapes the anchor) gives ''. A cheap `startsWith` before the regex.
 */
export function literalPrefix(source: string): string {
  if (!source.startsWith('^') || source.includes('|')) return '';
  let end = 1;
  while (end < source.length && LITERAL.test(source.charAt(end))) end++;
  if ('?*+{'.includes(source.charAt(end) || '.')) end--;
  return end > 1 ? source.slice(1, end) : '';
}

/**
 * The decoded memo (base64 → UTF-8) contains a text or matches a regex. Only the first MEMO_EVAL_LIMIT characters
 * are examined (Facts.memoHead) and regexes run on RE2 (shared/compile-regex.ts), so their cost is linear in that head.
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
      const re = ruleRegex(value.regex, value.ignore_case);
      const prefix = value.ignore_case ? '' : literalPrefix(value.regex);
      if (!prefix) return (f) => re.test(f.memoHead());
      return (f) => {
        const text = f.memoHead();
        return text.startsWith(prefix) && re.test(text);
      };
    }
    if (value.ignore_case) {
      const needle = (value.contains ?? '').toLowerCase();
      return (f) => f.memoHeadLower().includes(needle);
    }
    const needle = value.contains ?? '';
    return (f) => f.memoHead().includes(needle);
  },
  explain: (value: Memo) =>
    value.regex !== undefined
      ? `memo matches /${value.regex}/${value.ignore_case ? 'i' : ''}`
      : `memo contains ${JSON.stringify(value.contains)}${value.ignore_case ? ' (any case)' : ''}`,
});
