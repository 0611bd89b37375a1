// A token's facts as the daemon keeps them, read tolerantly from GET /api/v1/tokens/{id}: unknown members are
// ignored and an odd optional member is dropped, but what amounts rely on — decimals and symbol — is checked
// strictly. The service writes decimals as a string ("6"); a value outside 0..MAX_DECIMALS ("999", "-1", "1e3")
// is refused, and every amount of that token stays in raw units rather than being scaled by a hostile number.
import { ENTITY_ID_PATTERN } from '@ledger-sentinel/ledger-model/entity-id';

/**
 * The most decimals a token can have: amounts are int64, so a 19th decimal could not hold one whole token
 * (10^19 > 2^63 - 1). Above it the value is not one the ledger produces.
 */
export const MAX_DECIMALS = 18;
/** The ledger caps a symbol at 100 bytes of UTF-8. */
const MAX_SYMBOL_BYTES = 100;
/** Control characters and the bidirectional overrides that could make `-5 USDC` read as something else. */
const UNSAFE_TEXT = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u;
const INT = /^-?\d{1,20}$/;
const KEY_NAMES = ['admin', 'supply', 'wipe', 'freeze', 'pause', 'fee_schedule', 'kyc', 'metadata'] as const;

export type TokenType = 'FUNGIBLE_COMMON' | 'NON_FUNGIBLE_UNIQUE';
export type KeyName = (typeof KEY_NAMES)[number];

export interface TokenFacts {
  readonly tokenId: string;
  /** Undefined when the service did not give a usable value: amounts are then shown in raw units. */
  readonly decimals: number | undefined;
  /** Undefined when absent, empty or unsafe to show. */
  readonly symbol: string | undefined;
  readonly name: string | undefined;
  readonly type: TokenType | undefined;
  readonly totalSupply: bigint | undefined;
  readonly maxSupply: bigint | undefined;
  readonly treasury: string | undefined;
  /** `_type:key` of each key the token has; a key the token does not have is absent. */
  readonly keys: Readonly<Partial<Record<KeyName, string>>>;
  readonly pauseStatus: string | undefined;
  readonly freezeDefault: boolean | undefined;
  readonly deleted: boolean | undefined;
  /** How many fixed, fractional and royalty fees the current schedule has. */
  readonly customFees: { readonly fixed: number; readonly fractional: number; readonly royalty: number };
  /** Why decimals or symbol were refused, for the log line and `tokens` metric; undefined when both are fine. */
  readonly refused?: string;
}

export type DecimalsRead = { ok: true; decimals: number } | { ok: false; reason: string };

/** The service's `decimals`: a string of 0..MAX_DECIMALS (a JSON number is accepted too). */
export function readDecimals(value: unknown): DecimalsRead {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,3}$/.test(text))
    return { ok: false, reason: `decimals ${describe(value)} is not a whole number 0–${MAX_DECIMALS}` };
  const n = Number(text);
  return n <= MAX_DECIMALS
    ? { ok: true, decimals: n }
    : { ok: false, reason: `decimals ${describe(value)} is above ${MAX_DECIMALS}` };
}

export function readSymbol(value: unknown): { symbol?: string; reason?: string } {
  if (value === undefined || value === null || value === '') return {};
  if (typeof value !== 'string') return { reason: `symbol ${describe(value)} is not a string` };
  if (Buffer.byteLength(value, 'utf8') > MAX_SYMBOL_BYTES)
    return { reason: `symbol is longer than ${MAX_SYMBOL_BYTES} bytes` };
  if (UNSAFE_TEXT.test(value) || value.trim() !== value)
    return { reason: 'symbol holds control, invisible or direction characters' };
  return { symbol: value };
}

/** The facts of `tokenId` from its JSON body; never throws. */
export function readTokenInfo(tokenId: string, body: Readonly<Record<string, unknown>>): TokenFacts {
  const decimals = readDecimals(body.decimals);
  const symbol = readSymbol(body.symbol);
  const refused = [decimals.ok ? undefined : decimals.reason, symbol.reason].filter(Boolean).join('; ');
  return {
    tokenId,
    decimals: decimals.ok ? decimals.decimals : undefined,
    symbol: symbol.symbol,
    name: readSymbol(body.name).symbol,
    type: body.type === 'FUNGIBLE_COMMON' || body.type === 'NON_FUNGIBLE_UNIQUE' ? body.type : undefined,
    totalSupply: readInt(body.total_supply),
    maxSupply: readInt(body.max_supply),
    treasury: readEntity(body.treasury_account_id),
    keys: readKeys(body),
    pauseStatus: typeof body.pause_status === 'string' ? body.pause_status.slice(0, 32) : undefined,
    freezeDefault: typeof body.freeze_default === 'boolean' ? body.freeze_default : undefined,
    deleted: typeof body.deleted === 'boolean' ? body.deleted : undefined,
    customFees: readFees(body.custom_fees),
    ...(refused ? { refused } : {}),
  };
}

function readInt(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return typeof value === 'string' && INT.test(value) ? BigInt(value) : undefined;
}

function readEntity(value: unknown): string | undefined {
  return typeof value === 'string' && ENTITY_ID_PATTERN.test(value) ? value : undefined;
}

function readKeys(body: Readonly<Record<string, unknown>>): Partial<Record<KeyName, string>> {
  const keys: Partial<Record<KeyName, string>> = {};
  for (const name of KEY_NAMES) {
    const key = body[`${name}_key`];
    if (typeof key !== 'object' || key === null) continue;
    const { _type: type, key: hex } = key as Record<string, unknown>;
    if (typeof type === 'string' && typeof hex === 'string' && /^[0-9a-fA-F]{1,2048}$/.test(hex))
      keys[name] = `${type.slice(0, 32)}:${hex.toLowerCase()}`;
  }
  return keys;
}

function readFees(value: unknown): TokenFacts['customFees'] {
  const fees = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  return {
    fixed: count(fees.fixed_fees),
    fractional: count(fees.fractional_fees),
    royalty: count(fees.royalty_fees),
  };
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
