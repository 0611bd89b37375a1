// Turns a parsed response body into a Page: valid records, invalid ones reported with their JSON path and
// consensus timestamp (one bad record never takes the page down), and the next link.
import type { z } from 'zod';
import { MalformedResponseError } from './errors.js';
import {
  UNSAFE_INTEGER,
  checkContractAction,
  checkStakingReward,
  checkTransaction,
  type FastResult,
} from './fast-records.js';
import { quoteUnsafeIntegers } from './json.js';
import { ContractAction, StakingReward, Transaction } from './schema.js';

export type Endpoint = 'transactions' | 'rewards' | 'actions';

export interface RecordOf {
  transactions: Transaction;
  rewards: StakingReward;
  actions: ContractAction;
}

export interface InvalidRecord {
  /** Position in the page's array. */
  readonly index: number;
  /** JSON path of the first problem, e.g. `transactions[3].transfers[0].amount`. */
  readonly path: string;
  readonly message: string;
  /** The record's consensus timestamp when it has a readable one (`timestamp` for rewards and actions). */
  readonly timestamp: string | null;
}

export interface Page<T> {
  /** The request path and query, relative to the origin (what a tailer persists). */
  readonly url: string;
  readonly records: T[];
  readonly invalid: InvalidRecord[];
  readonly next: string | null;
}

interface RecordSpec<T> {
  readonly schema: z.ZodType<T>;
  readonly fast: (raw: unknown) => FastResult<T>;
  readonly timestampField: string;
}

const SPECS: { [K in Endpoint]: RecordSpec<RecordOf[K]> } = {
  transactions: { schema: Transaction, fast: checkTransaction, timestampField: 'consensus_timestamp' },
  rewards: { schema: StakingReward, fast: checkStakingReward, timestampField: 'timestamp' },
  actions: { schema: ContractAction, fast: checkContractAction, timestampField: 'timestamp' },
};

/**
 * Parses a response body: JSON.parse first; if a record holds an integer beyond 2^53 (already rounded by
 * JSON.parse), the page is parsed again with such integers quoted, so they reach Int64 as exact digit strings.
 * Ordinary pages never pay for it.
 */
export function parsePageText<K extends Endpoint>(endpoint: K, url: string, text: string): Page<RecordOf[K]> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new MalformedResponseError(url, 'the body is not valid JSON', { cause: err });
  }
  return (
    parsePage(endpoint, url, body, true) ?? parsePage(endpoint, url, JSON.parse(quoteUnsafeIntegers(text)))
  );
}

/** A page from a parsed body; with `optimistic`, null when the body must be re-parsed losslessly. */
export function parsePage<K extends Endpoint>(endpoint: K, url: string, body: unknown): Page<RecordOf[K]>;
export function parsePage<K extends Endpoint>(
  endpoint: K,
  url: string,
  body: unknown,
  optimistic: true,
): Page<RecordOf[K]> | null;
export function parsePage<K extends Endpoint>(
  endpoint: K,
  url: string,
  body: unknown,
  optimistic = false,
): Page<RecordOf[K]> | null {
  const envelope = readEnvelope(endpoint, url, body);
  const spec = SPECS[endpoint] as RecordSpec<RecordOf[K]>;
  if (envelope.items.length) lastRaw[endpoint] = envelope.items[0];
  const records: RecordOf[K][] = [];
  const invalid: InvalidRecord[] = [];
  for (let index = 0; index < envelope.items.length; index++) {
    const raw = envelope.items[index];
    const fast = spec.fast(raw);
    if (fast === UNSAFE_INTEGER && optimistic) return null;
    if (fast !== undefined && fast !== UNSAFE_INTEGER) {
      records.push(fast);
      continue;
    }
    const result = spec.schema.safeParse(raw);
    if (result.success) {
      records.push(result.data);
      continue;
    }
    const issue = result.error.issues[0];
    invalid.push({
      index,
      path: formatPath([endpoint, index, ...(issue?.path ?? [])]),
      message: issue?.message ?? 'invalid record',
      timestamp: readTimestamp(raw, spec.timestampField),
    });
  }
  return { url, records, invalid, next: envelope.next };
}

/**
 * One raw record of the last page of each endpoint, kept alive on purpose. JSON.parse builds its objects' hidden
 * classes through weak transitions: when a major GC finds no raw record alive (between two pages), it collects
 * them, and V8 throws away the optimized validators that check them ("weak objects" deopts), to re-optimize them
 * on the next page. A single record (a few hundred bytes) keeps the classes, and the compiled code, alive.
 */
const lastRaw: Partial<Record<Endpoint, unknown>> = {};

function readEnvelope(endpoint: Endpoint, url: string, body: unknown) {
  if (typeof body !== 'object' || body === null) {
    throw new MalformedResponseError(url, 'expected a JSON object');
  }
  // Reflect.get: a generic lookup, so the optimized parsePage does not depend on the envelope's hidden class,
  // which dies with each page (a major GC in between would otherwise throw the compiled validator away).
  const items: unknown = Reflect.get(body, endpoint);
  const links: unknown = Reflect.get(body, 'links');
  if (!Array.isArray(items)) throw new MalformedResponseError(url, `expected an array "${endpoint}"`);
  if (typeof links !== 'object' || links === null) {
    throw new MalformedResponseError(url, 'expected an object "links"');
  }
  const next: unknown = Reflect.get(links, 'next') ?? null;
  if (next !== null && typeof next !== 'string') {
    throw new MalformedResponseError(url, 'expected "links.next" to be a string or null');
  }
  return { items: items as unknown[], next };
}

function readTimestamp(raw: unknown, field: string): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const value = (raw as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : null;
}

/** `["transactions", 3, "transfers", 0, "amount"]` → `transactions[3].transfers[0].amount`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}
