import { z } from 'zod';
import { childSchemas, concreteSchemas, isRecord } from './zod-def.js';

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
