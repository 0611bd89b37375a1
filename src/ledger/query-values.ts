// Client-side checks of single parameter values, by the rules the 0.129 service applies (docs/ledger-api.md §2-10).
// Each returns the text to send or throws InvalidParameterError naming the parameter.
import { parseEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { InvalidParameterError } from './errors.js';
import { TIMESTAMP_PATTERN, formatTimestamp, type Timestamp } from '@ledger-sentinel/ledger-model/timestamp';
import { QUERYABLE_TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';

export const OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const;
export type Operator = (typeof OPERATORS)[number];

/** A filter value with an operator; a bare value means eq. */
export interface Filter<V> {
  readonly op: Operator;
  readonly value: V;
}

/** Maximum values per key the service accepts (docs/ledger-api.md §2.2). */
export const MAX_REPEATED = 100;
/** We reject limits above 100: the service caps silently but echoes the raw value in next links (docs/ledger-api.md §4). */
export const MAX_LIMIT = 100;

const EVM_ADDRESS = /^(?:0x|(?:\d{1,10}\.){1,2})?([0-9A-Fa-f]{40})$/;
const BASE32_ALIAS = /^(?:(\d{1,10})\.)?(?:(\d{1,10})\.)?([A-Z2-7]+)$/;

export function checkOperator(parameter: string, op: unknown, allowed: readonly Operator[]): Operator {
  if (typeof op === 'string' && (allowed as readonly string[]).includes(op)) return op as Operator;
  throw new InvalidParameterError(
    parameter,
    `operator must be one of ${allowed.join(', ')}, got "${String(op)}"`,
  );
}

export function checkLimit(limit: unknown): string {
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new InvalidParameterError(
      'limit',
      `expected an integer from 1 to ${MAX_LIMIT}, got ${String(limit)}`,
    );
  }
  if (limit > MAX_LIMIT) {
    throw new InvalidParameterError(
      'limit',
      `${limit} is above ${MAX_LIMIT}: the service caps it silently and repeats it in next links; use 1-${MAX_LIMIT}`,
    );
  }
  return String(limit);
}

export function checkEnum<T extends string>(parameter: string, value: unknown, allowed: readonly T[]): T {
  const lower = typeof value === 'string' ? value.toLowerCase() : value;
  if ((allowed as readonly unknown[]).includes(lower)) return lower as T;
  throw new InvalidParameterError(parameter, `expected one of ${allowed.join(', ')}, got "${String(value)}"`);
}

/** A query timestamp: "sss[.nnn]" with 1-10 digits of seconds, or a nanosecond bigint (timestamp.ts). */
export function checkTimestamp(parameter: string, value: unknown): string {
  const text = typeof value === 'bigint' && value >= 0n ? formatTimestamp(value as Timestamp) : value;
  if (typeof text === 'string' && TIMESTAMP_PATTERN.test(text)) return text;
  throw new InvalidParameterError(
    parameter,
    `expected seconds (1-10 digits) with an optional 1-9 digit fraction, like 1565779444.711927005, got "${String(value)}"`,
  );
}

/** `account.id` on /transactions: entity id forms (range-checked) or a 40-hex EVM address; no aliases. */
export function checkAccountId(value: unknown): string {
  if (typeof value !== 'string') throw new InvalidParameterError('account.id', 'expected a string');
  if (EVM_ADDRESS.test(value)) return value;
  const parsed = parseEntityId(value);
  if (parsed.ok) return value;
  if (parsed.reason === 'range') {
    throw new InvalidParameterError(
      'account.id',
      `Invalid entity ID "${value}": shard, realm or num out of range`,
    );
  }
  throw new InvalidParameterError(
    'account.id',
    `expected shard.realm.num, realm.num, num or a 40-hex EVM address (aliases are not accepted), got "${value}"`,
  );
}

/** The rewards path: an account id, an upper-case base32 alias or an EVM address (docs/ledger-api.md §3.2). */
export function checkAccountPath(value: unknown): string {
  const parameter = 'idOrAliasOrEvmAddress';
  if (typeof value !== 'string') throw new InvalidParameterError(parameter, 'expected a string');
  if (EVM_ADDRESS.test(value)) return value;
  const parsed = parseEntityId(value);
  if (parsed.ok) return value;
  const alias = BASE32_ALIAS.exec(value);
  if (alias && isZeroPrefix(alias[1]) && isZeroPrefix(alias[2]) && isCleanBase32(alias[3] ?? ''))
    return value;
  throw new InvalidParameterError(
    parameter,
    `expected an account id like 0.0.1234, an upper-case base32 alias or a 40-hex EVM address, got "${value}"`,
  );
}

function isZeroPrefix(group: string | undefined): boolean {
  return group === undefined || /^0+$/.test(group);
}

const BASE32_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Unpadded base32 that decodes cleanly: a valid length and zero padding bits in the last character. */
function isCleanBase32(text: string): boolean {
  const tailBits = (text.length * 5) % 8;
  if (![0, 1, 2, 3, 4].includes(tailBits)) return false; // lengths 1, 3 and 6 (mod 8) leave 5-7 bits
  const last = BASE32_CHARS.indexOf(text[text.length - 1] ?? '');
  return last >= 0 && (last & ((1 << tailBits) - 1)) === 0;
}

const TRANSACTION_ID = /^\d+\.\d+\.\d+-\d{1,19}-\d{1,9}$/;
const HASH = /^(?:0x)?[0-9A-Fa-f]{64}$/;

/** The actions path: `shard.realm.num-sss-nnn` or a 32-byte hash as 64 hex digits (docs/ledger-api.md §10). */
export function checkTransactionIdOrHash(value: unknown): string {
  const parameter = 'transactionIdOrHash';
  if (typeof value === 'string' && (TRANSACTION_ID.test(value) || HASH.test(value))) return value;
  const hint =
    typeof value === 'string' && /^(?:0x)?[0-9A-Fa-f]{96}$/.test(value)
      ? '; for a 48-byte transaction hash use its first 64 hex digits'
      : '';
  throw new InvalidParameterError(
    parameter,
    `expected a transaction id like 0.0.8-1565779444-711927000 or a 64-hex hash, got "${String(value)}"${hint}`,
  );
}

/** `transactiontype`: a 0.129 type name, any case; UNKNOWN and NODE are rejected by the service (docs/ledger-api.md §9). */
export function checkTransactionType(value: unknown): string {
  const upper = typeof value === 'string' ? value.toUpperCase() : '';
  if (QUERYABLE_TRANSACTION_TYPES.has(upper)) return upper;
  const why =
    upper === 'UNKNOWN' || upper === 'NODE' ? 'the service rejects it as a filter' : 'not a type name';
  throw new InvalidParameterError('transactiontype', `"${String(value)}": ${why}, e.g. CRYPTOTRANSFER`);
}

/** `index` on /actions: a non-negative integer below 2^31 (openapi `\d{1,10}`, int32). */
export function checkIndex(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2 ** 31 - 1) {
    return String(value);
  }
  throw new InvalidParameterError('index', `expected an integer from 0 to 2147483647, got ${String(value)}`);
}
