// Turns a parsed response body into a Page: valid records, invalid ones reported with their JSON path,
// consensus timestamp and raw text (one bad record never takes the page down, and the caller can keep it:
// docs/ledger-client.md "Records that cannot be read"), the lenient fields read as unknown, and the next link.
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
import {
  ContractAction,
  LENIENT_TRANSACTION_FIELDS,
  StakingReward,
  Transaction,
} from '@ledger-sentinel/ledger-model/schema';

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
  /** The record's top-level member the first problem is in (`transfers`), or '' when the record is not an object. */
  readonly field: string;
  /** The record's consensus timestamp when it has a readable one (`timestamp` for rewards and actions). */
  readonly timestamp: string | null;
  /** The record's transaction_id when it is a string (transactions only). */
  readonly transactionId: string | null;
  /** The record as JSON text (re-serialized from the parsed body), cut at MAX_RAW_CHARS. */
  readonly raw: string;
}

/** A lenient field whose value had an unexpected shape: the record was kept with it unknown (undefined). */
export interface DegradedField {
  readonly index: number;
  readonly field: string;
  readonly timestamp: string | null;
}

/** Raw text kept of an invalid record: a record is a few KiB; a hostile one must not fill the state store. */
export const MAX_RAW_CHARS = 64 * 1024;

export interface Page<T> {
  /** The request path and query, relative to the origin (what a tailer persists). */
  readonly url: string;
  readonly records: T[];
  readonly invalid: InvalidRecord[];
  readonly degraded: DegradedField[];
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
  const degraded: DegradedField[] = [];
  for (let index = 0; index < envelope.items.length; index++) {
    const raw = envelope.items[index];
    const fast = spec.fast(raw);
    if (fast !== undefined && fast !== UNSAFE_INTEGER) {
      records.push(fast);
      continue;
    }
    // Any record that needs zod is read from the lossless parse: JSON.parse may have rounded an integer in it
    // (which would reject the record, or make its raw text lie). Rare, so the second parse is cheap overall.
    if (optimistic) return null;
    const result = spec.schema.safeParse(raw);
    if (result.success) {
      records.push(result.data);
      if (endpoint === 'transactions') degraded.push(...degradedFields(raw, result.data, index));
      continue;
    }
    invalid.push({ ...invalidRecord(endpoint, index, raw, result.error.issues[0]), raw: rawText(raw) });
  }
  return { url, records, invalid, degraded, next: envelope.next };
}

/** What the quarantine keeps of a record its schema rejects (the first issue names the field). */
export function invalidRecord(
  endpoint: Endpoint,
  index: number,
  raw: unknown,
  issue: { readonly path: readonly PropertyKey[]; readonly message: string } | undefined,
): Omit<InvalidRecord, 'raw'> {
  const path = issue?.path ?? [];
  return {
    index,
    path: formatPath([endpoint, index, ...path]),
    message: issue?.message ?? 'invalid record',
    field: path.length > 0 ? String(path[0]) : '',
    timestamp: readString(raw, SPECS[endpoint].timestampField),
    transactionId: endpoint === 'transactions' ? readString(raw, 'transaction_id') : null,
  };
}

/** Lenient fields that were present (not null) on the wire but read as unknown. */
function degradedFields(raw: unknown, record: unknown, index: number): DegradedField[] {
  const wire = raw as Record<string, unknown>;
  const read = record as Record<string, unknown>;
  const out: DegradedField[] = [];
  for (const field of LENIENT_TRANSACTION_FIELDS) {
    if (wire[field] !== undefined && read[field] === undefined)
      out.push({ index, field, timestamp: readString(raw, 'consensus_timestamp') });
  }
  return out;
}

/** JSON text of a parsed record; bigints (test bodies) as digit strings, since JSON cannot hold them. */
function rawText(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
  } catch {
    text = String(raw);
  }
  return text.length > MAX_RAW_CHARS ? text.slice(0, MAX_RAW_CHARS) : text;
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

function readString(raw: unknown, field: string): string | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const value = (raw as Record<string, unknown>)[field];
  // Bounded: it becomes a key and a log value; a real timestamp or transaction id is under 50 characters.
  return typeof value === 'string' ? value.slice(0, 100) : null;
}

/** `["transactions", 3, "transfers", 0, "amount"]` → `transactions[3].transfers[0].amount`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}
