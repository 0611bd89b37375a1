// Rewrites zod's generic messages into the user's language ("expected a number, got "abc"").
// Used as the parse-level error map, so messages that schemas set themselves win (zod's precedence).
import type { z } from 'zod';
import { describeValue } from './describe-value.js';
import { didYouMean } from './did-you-mean.js';
import { isSecret } from './secret.js';

type RawIssue = z.core.$ZodRawIssue;

/** Marks a missing key; the caller words it, as only it knows the final path. */
export const MISSING = '\u0000missing';
/** Marks a union none of whose options fit the value's shape; the caller flattens it. */
export const UNION = '\u0000union';

const NOUNS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping (key: value)',
  record: 'a mapping (key: value)',
  array: 'a list',
  tuple: 'a list',
  null: 'an empty value',
};

export function noun(expected: string): string {
  return NOUNS[expected] ?? `a ${expected}`;
}

/** `hidden`: values that must never be quoted back (contents of `*_file` files). */
export function zodMessage(issue: RawIssue, hidden: ReadonlySet<unknown>): string {
  const hide = isSecret(issue.inst as z.core.$ZodType | undefined) || hidden.has(issue.input);
  const got = describeValue(issue.input, hide);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? MISSING
        : `expected ${noun(issue.expected)}, got ${got}${typeHint(issue)}`;
    case 'invalid_value':
      return oneOf(issue.values.map(String), issue.input, got, hide);
    case 'too_small':
    case 'too_big':
      return bound(issue, got);
    case 'invalid_format':
      return format(issue, got);
    case 'not_multiple_of':
      return `expected a multiple of ${String(issue.divisor)}, got ${got}`;
    case 'unrecognized_keys':
      return 'unknown key';
    case 'invalid_union':
      return union(issue, hide);
    case 'invalid_key':
      return `invalid key ${describeValue(issue.input)}`;
    case 'invalid_element':
      return `invalid item ${got}`;
    default:
      return issue.message ?? `is not valid: ${got}`;
  }
}

// The two YAML slips behind most type errors: a bare number where text is wanted, and quotes around a number.
function typeHint(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidType>): string {
  const scalar = typeof issue.input === 'number' || typeof issue.input === 'boolean';
  if (issue.expected === 'string' && scalar) return '; quote it to make it text';
  const numeric =
    typeof issue.input === 'string' && issue.input.trim() !== '' && !Number.isNaN(Number(issue.input));
  if (['number', 'int', 'bigint'].includes(issue.expected) && numeric) return '; remove the quotes';
  return '';
}

function oneOf(values: readonly string[], input: unknown, got: string, hide: boolean): string {
  if (values.length === 1) return `expected ${JSON.stringify(values[0])}, got ${got}`;
  const guess = typeof input === 'string' && !hide ? didYouMean(input, values) : undefined;
  return `expected one of ${values.join(', ')}, got ${got}${guess ? `; did you mean "${guess}"?` : ''}`;
}

function bound(
  issue: z.core.$ZodRawIssue<z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall>,
  got: string,
): string {
  const small = issue.code === 'too_small';
  const limit = String(
    small ? (issue as { minimum: unknown }).minimum : (issue as { maximum: unknown }).maximum,
  );
  const inclusive = issue.inclusive !== false;
  const words = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
  switch (issue.origin) {
    case 'string':
      if (small && limit === '1') return 'must not be empty';
      return `expected ${words} ${limit} characters, got ${length(issue.input)}`;
    case 'array':
    case 'set':
      if (small && limit === '1') return 'must list at least one item';
      return `expected ${words} ${limit} items, got ${length(issue.input)}`;
    default:
      return `expected a number ${small ? (inclusive ? '≥' : '>') : inclusive ? '≤' : '<'} ${limit}, got ${got}`;
  }
}

function length(input: unknown): number {
  return typeof input === 'string' || Array.isArray(input) ? input.length : 0;
}

function format(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidStringFormat>, got: string): string {
  switch (issue.format) {
    case 'url':
      return `expected a URL like "https://example.com", got ${got}`;
    case 'email':
      return `expected an email address like "ops@example.com", got ${got}`;
    case 'regex':
      return `expected text matching ${String(issue.pattern)}, got ${got}`;
    case 'starts_with':
      return `expected text starting with ${JSON.stringify(issue.prefix)}, got ${got}`;
    default:
      return `expected ${noun(issue.format)}, got ${got}`;
  }
}

function union(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidUnion>, hide: boolean): string {
  const { discriminator, options } = issue as unknown as { discriminator?: string; options?: unknown[] };
  if (discriminator !== undefined) {
    const input = issue.input as Record<string, unknown> | undefined;
    const value = input?.[discriminator];
    const allowed = (options ?? []).map(String);
    if (value === undefined)
      return `missing required key "${discriminator}"; add it with one of ${allowed.join(', ')}`;
    return oneOf(allowed, value, describeValue(value, hide), hide);
  }
  const forms = issue.errors.map((errors) => (errors.length === 1 ? expectedForm(errors[0]) : undefined));
  if (forms.every((form) => form !== undefined)) {
    const unique = [...new Set(forms.flat())];
    const list =
      unique.length > 1 ? `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}` : unique.join('');
    return `expected ${list}, got ${describeValue(issue.input, hide)}`;
  }
  return UNION;
}

// What a union option wanted, when it rejected the value outright (wrong type or not one of its values).
function expectedForm(issue: z.core.$ZodIssue | undefined): string[] | undefined {
  if (!issue || issue.path.length > 0) return undefined;
  if (issue.code === 'invalid_type') return [noun(issue.expected)];
  if (issue.code === 'invalid_value') return issue.values.map((value) => JSON.stringify(value));
  return undefined;
}
