// Entity ids (`shard.realm.num`) as the 0.129 mirror node parses them (docs/ledger-api.md §5.1, upstream entityId.js).
// The encoded form packs shard (10 bits), realm (16 bits) and num (38 bits) into one 64-bit integer.

export interface EntityId {
  readonly shard: bigint;
  readonly realm: bigint;
  readonly num: bigint;
}

const SHARD_BITS = 10n;
const REALM_BITS = 16n;
const NUM_BITS = 38n;
const MAX_SHARD = (1n << SHARD_BITS) - 1n;
const MAX_REALM = (1n << REALM_BITS) - 1n;
const MAX_NUM = (1n << NUM_BITS) - 1n;

/** `shard.realm.num` as the service writes it in responses. */
export const ENTITY_ID_PATTERN = /^\d{1,10}\.\d{1,10}\.\d{1,10}$/;
const DOTTED = /^(?:(\d{1,4})\.)?(\d{1,5})\.(\d{1,12})$/;
const ENCODED = /^-?\d{1,19}$/;

export type EntityIdParse = { ok: true; id: EntityId } | { ok: false; reason: 'format' | 'range' };

/**
 * Parses `shard.realm.num`, `realm.num` or a plain num / encoded id. `reason: 'range'` mirrors the service's
 * second-pass `Invalid entity ID "<id>"`; `'format'` its `Invalid parameter: <name>`.
 */
export function parseEntityId(text: string): EntityIdParse {
  const dotted = DOTTED.exec(text);
  if (dotted) {
    const id = {
      shard: BigInt(dotted[1] ?? '0'),
      realm: BigInt(dotted[2] ?? '0'),
      num: BigInt(dotted[3] ?? '0'),
    };
    return inRange(id) ? { ok: true, id } : { ok: false, reason: 'range' };
  }
  if (ENCODED.test(text)) {
    const encoded = BigInt(text);
    if (encoded < 0n || encoded > (1n << 63n) - 1n) return { ok: false, reason: 'range' };
    return { ok: true, id: decodeEntityId(encoded) };
  }
  return { ok: false, reason: 'format' };
}

function inRange(id: EntityId): boolean {
  return id.shard <= MAX_SHARD && id.realm <= MAX_REALM && id.num <= MAX_NUM;
}

export function encodeEntityId(id: EntityId): bigint {
  return (id.shard << (REALM_BITS + NUM_BITS)) | (id.realm << NUM_BITS) | id.num;
}

export function decodeEntityId(encoded: bigint): EntityId {
  return {
    shard: (encoded >> (REALM_BITS + NUM_BITS)) & MAX_SHARD,
    realm: (encoded >> NUM_BITS) & MAX_REALM,
    num: encoded & MAX_NUM,
  };
}

export function formatEntityId(id: EntityId): string {
  return `${id.shard}.${id.realm}.${id.num}`;
}

/** Normalises `1234`, `0.1234` or `0.0.1234` to `0.0.1234`; throws on anything else. */
export function normalizeEntityId(text: string): string {
  const parsed = parseEntityId(text);
  if (!parsed.ok)
    throw new RangeError(`not an entity id: expected shard.realm.num like 0.0.1234, got "${text}"`);
  return formatEntityId(parsed.id);
}

/** The 20-byte "long-zero" EVM address of an entity: 0x + 8 hex shard + 16 hex realm + 16 hex num. */
export function longZeroAddress(id: EntityId): string {
  const hex = (v: bigint, width: number) => v.toString(16).padStart(width, '0');
  return `0x${hex(id.shard, 8)}${hex(id.realm, 16)}${hex(id.num, 16)}`;
}

const EVM_HEX = /^(?:0x)?([0-9a-fA-F]{40})$/;

export type LongZeroParse =
  { ok: true; id: EntityId } | { ok: false; reason: 'not-evm' | 'not-long-zero' | 'range' };

/**
 * Decodes a "long-zero" EVM address (12 zero bytes, then the 8-byte num: what the service writes for an account
 * without an EVM address of its own) to `0.0.num` without a request. Any other 40-hex address belongs to an
 * account whose id only the query service knows (`not-long-zero`).
 */
export function parseLongZeroAddress(text: string): LongZeroParse {
  const match = EVM_HEX.exec(text);
  if (!match) return { ok: false, reason: 'not-evm' };
  const hex = (match[1] as string).toLowerCase();
  if (!hex.startsWith('0'.repeat(24))) return { ok: false, reason: 'not-long-zero' };
  const num = BigInt(`0x${hex.slice(24)}`);
  if (num > MAX_NUM) return { ok: false, reason: 'range' };
  return { ok: true, id: { shard: 0n, realm: 0n, num } };
}

/** A staking reward transfer's account: `"0.0.N"`, or an encoded id as a number in older shapes. */
export function rewardAccountId(account: string | number): string {
  return typeof account === 'number' ? formatEntityId(decodeEntityId(BigInt(account))) : account;
}
