// Query-string handling shared by the three routes (docs/ledger-api.md §2): qs-like parsing, operator splitting, the
// first validation pass and its message order.

/** One parsed key: lower-cased, with every value of every spelling, in order, at the first key's position. */
export interface QueryParam {
  readonly key: string;
  readonly values: string[];
}

export type Operator = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte';

export interface Filter {
  readonly key: string;
  readonly op: Operator;
  readonly value: string;
  /** The value exactly as sent (after decoding), for echoing into links. */
  readonly raw: string;
}

/** qs parameterLimit: segments after the first 1,000 are ignored. */
const PARAMETER_LIMIT = 1000;
const OPERATORS: ReadonlySet<string> = new Set(['eq', 'ne', 'gt', 'gte', 'lt', 'lte']);
/** Keys whose values the service lower-cases before anything else (requestHandler.js). */
const LOWER_CASED_VALUES: ReadonlySet<string> = new Set(['order', 'result']);

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Parses a raw query string (without `?`) the way the service does (docs/ledger-api.md §2.1). */
export function parseQuery(raw: string): QueryParam[] {
  const byKey = new Map<string, QueryParam>();
  for (const segment of raw.split('&', PARAMETER_LIMIT)) {
    if (segment === '') continue;
    const eq = segment.indexOf('=');
    const decodedKey = decode(eq < 0 ? segment : segment.slice(0, eq));
    // qs drops keys that would shadow Object.prototype members (allowPrototypes: false).
    if (decodedKey === '' || Object.prototype.hasOwnProperty.call(Object.prototype, decodedKey)) continue;
    const key = decodedKey.toLowerCase();
    let value = eq < 0 ? '' : decode(segment.slice(eq + 1));
    if (LOWER_CASED_VALUES.has(key)) value = value.toLowerCase();
    const param = byKey.get(key);
    if (param) param.values.push(value);
    else byKey.set(key, { key, values: [value] });
  }
  return [...byKey.values()];
}

/** `op:value` or a bare value (eq); null when the operator is unknown. Text after a second colon is dropped. */
export function splitOperator(key: string, raw: string): Filter | null {
  const parts = raw.split(':');
  if (parts.length === 1) return { key, op: 'eq', value: raw, raw };
  const op = parts[0] as string;
  if (!OPERATORS.has(op)) return null;
  return { key, op: op as Operator, value: parts[1] as string, raw };
}

export interface EndpointRules {
  /** Per accepted key: is this (operator-split) filter valid? */
  readonly validators: ReadonlyMap<string, (filter: Filter) => boolean>;
  readonly maxRepeated: number;
}

export type FirstPass = { ok: true; filters: Filter[] } | { ok: false; messages: string[] };

/** The first validation pass (docs/ledger-api.md §2.3): every problem at once, in the service's message order. */
export function validateQuery(params: readonly QueryParam[], rules: EndpointRules): FirstPass {
  const exceeded: string[] = [];
  const invalid: string[] = [];
  const unknown: string[] = [];
  const filters: Filter[] = [];
  for (const { key, values } of params) {
    const validate = rules.validators.get(key);
    if (validate === undefined) {
      for (let i = 0; i < values.length; i++) unknown.push(`Unknown query parameter: ${key}`);
      continue;
    }
    if (values.length > rules.maxRepeated) {
      exceeded.push(
        `Parameter values count exceeds maximum number allowed: ${key} count: ${values.length} max: ${rules.maxRepeated}`,
      );
      continue;
    }
    for (const value of values) {
      const filter = splitOperator(key, value);
      if (filter === null || !validate(filter)) invalid.push(`Invalid parameter: ${key}`);
      else filters.push(filter);
    }
  }
  const messages = [...exceeded, ...invalid, ...unknown];
  return messages.length === 0 ? { ok: true, filters } : { ok: false, messages };
}

const LIMIT_PATTERN = /^\d{1,19}$/;
const TIMESTAMP_PATTERN = /^\d{1,10}(\.\d{1,9})?$/;

export function isValidLimit(filter: Filter): boolean {
  return LIMIT_PATTERN.test(filter.value) && BigInt(filter.value) >= 1n;
}

export function isValidOrder(filter: Filter): boolean {
  return filter.value === 'asc' || filter.value === 'desc';
}

export function isValidTimestamp(filter: Filter): boolean {
  return TIMESTAMP_PATTERN.test(filter.value);
}

/** Scalar params: the last value wins (docs/ledger-api.md §2.2). */
export function lastValue(filters: readonly Filter[], key: string): string | undefined {
  let value: string | undefined;
  for (const filter of filters) if (filter.key === key) value = filter.value;
  return value;
}

/** Effective limit: requested (or default) capped at the configured max (docs/ledger-api.md §4). */
export function effectiveLimit(filters: readonly Filter[], defaultLimit: number, maxLimit: number): number {
  const requested = lastValue(filters, 'limit');
  if (requested === undefined) return Math.min(defaultLimit, maxLimit);
  const value = BigInt(requested);
  return value > BigInt(maxLimit) ? maxLimit : Number(value);
}

export function effectiveOrder(filters: readonly Filter[], fallback: 'asc' | 'desc'): 'asc' | 'desc' {
  const order = lastValue(filters, 'order');
  return order === 'asc' || order === 'desc' ? order : fallback;
}

/** The paging parameters of every listing, validated alike: limit and order. */
export const PAGING_VALIDATORS: readonly (readonly [string, (filter: Filter) => boolean])[] = [
  ['limit', isValidLimit],
  ['order', isValidOrder],
];
