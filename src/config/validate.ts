import type { z } from 'zod';
import { quote } from './describe-value.js';
import { didYouMean } from './did-you-mean.js';
import { isSecret } from './secret.js';
import { MISSING, UNION, zodMessage } from './zod-message.js';
import { defOf, isRecord } from './zod-def.js';

export type PathKey = string | number;

/** A schema problem before it is placed in the file. `atKey`: point at the key itself, not its value. */
export interface ValidationIssue {
  /** The path as the user wrote it (`api_key_file`), for the message. */
  readonly path: readonly PathKey[];
  /** The path in the validated data (`api_key`), to find the node. */
  readonly at: readonly PathKey[];
  readonly message: string;
  readonly atKey: boolean;
}

export type Validation<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

export interface ValidateOptions {
  /** Values never quoted back in messages (contents of `*_file` files). */
  readonly hidden?: ReadonlySet<unknown>;
  /** Key names as the user wrote them, by dotted path (`x_file` renamed to `x`). */
  readonly written?: ReadonlyMap<string, string>;
}

/** Validates with zod and turns every issue into user language, one issue per unknown key. */
export function validate<S extends z.ZodType>(
  schema: S,
  data: unknown,
  options: ValidateOptions = {},
): Validation<z.output<S>> {
  const allowed = new WeakMap<object, string[]>();
  const result = schema.safeParse(data, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys' && isRecord(issue.input))
        allowed.set(issue.input, allowedKeys(issue.inst as z.core.$ZodType));
      return zodMessage(issue, options.hidden ?? new Set());
    },
  });
  if (result.success) return { ok: true, value: result.data };
  const context: Context = { data, allowed, written: options.written ?? new Map() };
  const issues = result.error.issues.flatMap((issue) => rewrite(issue, [], context));
  return {
    ok: false,
    issues: issues.map((issue) => ({ ...issue, message: scrub(issue.message, options.hidden) })),
  };
}

interface Context {
  readonly data: unknown;
  readonly allowed: WeakMap<object, string[]>;
  readonly written: ReadonlyMap<string, string>;
}

function rewrite(issue: z.core.$ZodIssue, prefix: readonly PathKey[], context: Context): ValidationIssue[] {
  const path = [...prefix, ...(issue.path as PathKey[])];
  if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => unknownKey(path, key, context));
  if (issue.code === 'invalid_union' && issue.message === UNION) return flattenUnion(issue, path, context);
  const shown = shownPath(path, context);
  const message = issue.message === MISSING ? missing(path) : issue.message;
  return [{ path: shown, at: path, message, atKey: issue.code === 'invalid_key' }];
}

function missing(path: readonly PathKey[]): string {
  const key = String(path.at(-1));
  const parent = path.slice(0, -1).join('.');
  return `missing required key "${key}"; add it ${parent ? `to ${parent}` : 'at the top level'}`;
}

function unknownKey(parent: readonly PathKey[], key: string, context: Context): ValidationIssue {
  const path = shownPath([...parent, key], context);
  const written = String(path.at(-1));
  const allowed = context.allowed.get(valueAt(context.data, parent) as object) ?? [];
  const guess = didYouMean(written, allowed);
  const hint = guess
    ? `did you mean "${guess}"?`
    : allowed.length
      ? `allowed keys here: ${allowed.join(', ')}`
      : 'remove it';
  return { path, at: [...parent, key], message: `unknown key "${written}"; ${hint}`, atKey: true };
}

// A union whose options all failed. Options that fit the value's shape (problems only inside it, or unknown keys)
// hold the real problems; the one with the fewest is most likely what the user meant.
function flattenUnion(
  issue: z.core.$ZodIssueInvalidUnion,
  path: PathKey[],
  context: Context,
): ValidationIssue[] {
  const fitting = issue.errors
    .filter((errors) => errors.every((e) => e.path.length > 0 || e.code === 'unrecognized_keys'))
    .sort((a, b) => a.length - b.length);
  const [closest] = fitting;
  if (closest) return closest.flatMap((inner) => rewrite(inner, path, context));
  const forms = issue.errors.flatMap((errors) =>
    errors.filter((e) => e.path.length === 0).map((e) => e.message),
  );
  const message = `does not match any allowed form (${forms.join(' | ')})`;
  return [{ path: shownPath(path, context), at: path, message, atKey: false }];
}

// Schemas' own messages may quote the input; contents of secret files must never appear.
function scrub(message: string, hidden: ReadonlySet<unknown> = new Set()): string {
  let clean = message;
  for (const value of hidden) {
    if (typeof value === 'string' && value.length >= 4)
      clean = clean.replaceAll(quote(value), 'a string').replaceAll(value, '[secret]');
  }
  return clean;
}

function shownPath(path: readonly PathKey[], context: Context): PathKey[] {
  const written = context.written.get(path.join('.'));
  return written === undefined ? [...path] : [...path.slice(0, -1), written];
}

function allowedKeys(schema: z.core.$ZodType): string[] {
  const shape = defOf(schema).shape ?? {};
  return Object.entries(shape).flatMap(([key, field]) => (isSecret(field) ? [key, `${key}_file`] : [key]));
}

export function valueAt(data: unknown, path: readonly PathKey[]): unknown {
  let value = data;
  for (const key of path)
    value = isRecord(value) || Array.isArray(value) ? (value as Record<PathKey, unknown>)[key] : undefined;
  return value;
}
