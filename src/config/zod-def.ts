// Schema introspection over zod 4's public `_zod.def`: the loader needs the allowed keys at a path
// (for `*_file` twins and did-you-mean) and `collectSecrets` needs to find `secret()` fields.
import type { z } from 'zod';

type Schema = z.core.$ZodType;

interface Def {
  readonly type: string;
  readonly innerType?: Schema;
  readonly in?: Schema;
  readonly out?: Schema;
  readonly getter?: () => Schema;
  readonly options?: readonly Schema[];
  readonly discriminator?: string;
  readonly left?: Schema;
  readonly right?: Schema;
  readonly shape?: Readonly<Record<string, Schema>>;
  readonly catchall?: Schema;
  readonly element?: Schema;
  readonly valueType?: Schema;
  readonly items?: readonly Schema[];
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

export function defOf(schema: Schema): Def {
  return schema._zod.def as unknown as Def;
}

/**
 * The concrete schemas a value is checked against, through wrappers, pipes, lazies, unions and intersections.
 * `value` picks discriminated-union options; pass `undefined` to get all of them.
 */
export function concreteSchemas(schema: Schema, value: unknown, side: 'in' | 'out' = 'in'): Schema[] {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return concreteSchemas(def.innerType, value, side);
  if (def.type === 'lazy' && def.getter) return concreteSchemas(def.getter(), value, side);
  if (def.type === 'pipe' && def.in && def.out) {
    const preferOut = side === 'out' || defOf(def.in).type === 'transform';
    return concreteSchemas(preferOut ? def.out : def.in, value, side);
  }
  if (def.type === 'intersection' && def.left && def.right) {
    return [...concreteSchemas(def.left, value, side), ...concreteSchemas(def.right, value, side)];
  }
  if (def.type === 'union' && def.options) {
    return pickOptions(def, value).flatMap((option) => concreteSchemas(option, value, side));
  }
  return [schema];
}

function pickOptions(def: Def, value: unknown): readonly Schema[] {
  const options = def.options ?? [];
  const key = def.discriminator;
  if (!key || !isRecord(value) || value[key] === undefined) return options;
  const matching = options.filter((option) =>
    concreteSchemas(option, undefined).some((s) => {
      const values = defOf(s).shape?.[key]?._zod.values;
      return values?.has(value[key] as string) ?? true;
    }),
  );
  return matching.length ? matching : options;
}

/** The schemas that check `value[key]` when `schema` checks `value`. */
export function childSchemas(
  schema: Schema,
  key: string | number,
  value: unknown,
  side: 'in' | 'out' = 'in',
): Schema[] {
  return concreteSchemas(schema, value, side).flatMap((s) => {
    const def = defOf(s);
    if (def.type === 'object') {
      const field = def.shape?.[String(key)] ?? def.catchall;
      return field ? [field] : [];
    }
    if (def.type === 'record' && def.valueType) return [def.valueType];
    if (def.type === 'array' && def.element) return [def.element];
    if (def.type === 'tuple' && typeof key === 'number' && def.items?.[key]) return [def.items[key]];
    return [];
  });
}

/** The object schemas that check the mapping at `path`, or undefined when the schema there is not introspectable. */
export function objectSchemasAt(
  schema: Schema,
  path: readonly (string | number)[],
  root: unknown,
): Schema[] | undefined {
  let schemas = [schema];
  let value = root;
  for (const key of path) {
    schemas = schemas.flatMap((s) => childSchemas(s, key, value));
    value = isRecord(value) || Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
  }
  const objects = schemas.flatMap((s) => concreteSchemas(s, value)).filter((s) => defOf(s).type === 'object');
  return objects.length ? objects : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
