import { z } from 'zod';
import { childSchemas, concreteSchemas, defOf, isRecord } from './zod-def.js';

/** Every schema declared with `secret()`: the loader never echoes their values and logs redact them. */
export const secretRegistry = z.registry<{ secret: true }>();

/** A non-empty string that is a secret; the loader also accepts `<key>_file` holding a path to it. */
export function secret(): z.ZodString {
  return z.string().min(1, 'must not be empty').register(secretRegistry, { secret: true });
}

/** True when the schema (through optional/default/pipe wrappers) was declared with `secret()`. */
export function isSecret(schema: z.core.$ZodType | undefined): boolean {
  if (!schema) return false;
  return secretRegistry.has(schema) || concreteSchemas(schema, undefined).some((s) => secretRegistry.has(s));
}

/** Every secret value in a validated config, for log redaction and leak tests. */
export function collectSecrets(schema: z.core.$ZodType, value: unknown): string[] {
  const found = new Set<string>();
  walk(schema, value, found);
  return [...found];
}

function walk(schema: z.core.$ZodType, value: unknown, found: Set<string>): void {
  // A list of 100,000 accounts holds no secret: its values are not walked one by one (1.5 s of a start-up).
  if (!holdsSecret(schema)) return;
  if (typeof value === 'string') {
    if (isSecret(schema)) found.add(value);
    return;
  }
  if (!isRecord(value) && !Array.isArray(value)) return;
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, child] of entries) {
    for (const childSchema of childSchemas(schema, key, value, 'out')) walk(childSchema, child, found);
  }
}

const holding = new WeakMap<z.core.$ZodType, boolean>();

/** Whether any value checked by `schema`, or under it, can be a secret (the schema graph only, memoised). */
function holdsSecret(schema: z.core.$ZodType, visiting = new Set<z.core.$ZodType>()): boolean {
  const known = holding.get(schema);
  if (known !== undefined) return known;
  if (visiting.has(schema)) return false; // a recursive schema: the outer call decides
  visiting.add(schema);
  const holds =
    secretRegistry.has(schema) ||
    concreteSchemas(schema, undefined, 'out').some(
      (s) => secretRegistry.has(s) || childrenOf(s).some((child) => holdsSecret(child, visiting)),
    );
  visiting.delete(schema);
  if (visiting.size === 0 || holds) holding.set(schema, holds);
  return holds;
}

function childrenOf(schema: z.core.$ZodType): z.core.$ZodType[] {
  const def = defOf(schema);
  return [
    ...Object.values(def.shape ?? {}),
    ...(def.catchall ? [def.catchall] : []),
    ...(def.valueType ? [def.valueType] : []),
    ...(def.element ? [def.element] : []),
    ...(def.items ?? []),
  ];
}
