// A token as the service stores it (the token row, its entity row and its custom-fee schedule, each with the
// history of its versions) and the TokenInfo body `GET /api/v1/tokens/{tokenId}` builds from them.
import { decodeEntityId, formatEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { formatTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import type { WireJson } from './json.js';
import { keyObject } from './service-version.js';

export type TokenType = 'FUNGIBLE_COMMON' | 'NON_FUNGIBLE_UNIQUE';

/** The token row's columns; keys are raw protobuf Key bytes as lower-case hex (no 0x), null when unset. */
export interface SimTokenRow {
  /** Lower bound of the row's validity (consensus ns): the version in force from then on. */
  readonly since: bigint;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: bigint;
  readonly type: TokenType;
  readonly supplyType: 'INFINITE' | 'FINITE';
  readonly initialSupply: bigint;
  readonly maxSupply: bigint;
  readonly treasury: bigint;
  readonly createdTimestamp: bigint;
  readonly freezeDefault: boolean;
  readonly pauseStatus: 'NOT_APPLICABLE' | 'PAUSED' | 'UNPAUSED';
  readonly keys: Readonly<Record<TokenKeyName, string | null>>;
  /** Raw metadata bytes, hex. */
  readonly metadataHex: string;
}

export type TokenKeyName = 'fee_schedule' | 'freeze' | 'kyc' | 'metadata' | 'pause' | 'supply' | 'wipe';

/** The token's entity row: admin key, memo, expiry, deletion. */
export interface SimTokenEntityRow {
  readonly since: bigint;
  readonly adminKeyHex: string | null;
  readonly autoRenewAccount: bigint | null;
  readonly autoRenewPeriod: bigint | null;
  readonly deleted: boolean | null;
  readonly expirationTimestamp: bigint | null;
  readonly memo: string;
}

/** One custom-fee schedule, its fees already in the wire shape. */
export interface SimFeeSchedule {
  readonly since: bigint;
  readonly fixed: readonly WireJson[];
  readonly fractional: readonly WireJson[];
  readonly royalty: readonly WireJson[];
}

export interface SimToken {
  readonly tokenId: bigint;
  /** Versions ascending by `since`; the last is current. */
  readonly rows: readonly SimTokenRow[];
  readonly entities: readonly SimTokenEntityRow[];
  readonly fees: readonly SimFeeSchedule[];
  /** Current total supply (the living ledger moves it with mints, burns and wipes). */
  readonly totalSupply: bigint;
}

/** `lt`/`lte` bound on a version's lower bound (`eq` is served as `lte`); undefined = the current version. */
export interface VersionBound {
  readonly op: 'lt' | 'lte';
  readonly ns: bigint;
}

const IMMUTABLE_SENTINEL = '3200';
const NS_PER_SECOND = 1_000_000_000n;

/** The version in force at the bound: the newest whose `since` passes it. */
export function versionAt<T extends { readonly since: bigint }>(
  versions: readonly T[],
  bound: VersionBound | undefined,
): T | undefined {
  if (bound === undefined) return versions[versions.length - 1];
  let found: T | undefined;
  for (const v of versions) {
    if (bound.op === 'lt' ? v.since < bound.ns : v.since <= bound.ns) found = v;
  }
  return found;
}

/** The TokenInfo body, or undefined when the token, its entity or its fee schedule has no version at the bound. */
export function tokenInfoJson(token: SimToken, bound?: VersionBound): WireJson | undefined {
  const row = versionAt(token.rows, bound);
  const entity = versionAt(token.entities, bound);
  const fees = versionAt(token.fees, bound);
  if (!row || !entity || !fees) return undefined;
  const created = row.createdTimestamp;
  const expiry =
    entity.expirationTimestamp ??
    (entity.autoRenewPeriod === null ? null : created + entity.autoRenewPeriod * NS_PER_SECOND);
  const key = (name: TokenKeyName) => encodeKey(row.keys[name]);
  return {
    admin_key: encodeKey(entity.adminKeyHex),
    auto_renew_account: entity.autoRenewAccount === null ? null : entityText(entity.autoRenewAccount),
    auto_renew_period: entity.autoRenewPeriod,
    created_timestamp: formatTimestamp(created),
    custom_fees: {
      created_timestamp: formatTimestamp(fees.since),
      fixed_fees: fees.fixed,
      ...(row.type === 'FUNGIBLE_COMMON'
        ? { fractional_fees: fees.fractional }
        : { royalty_fees: fees.royalty }),
    },
    decimals: `${row.decimals}`,
    deleted: entity.deleted,
    expiry_timestamp: expiry,
    fee_schedule_key: key('fee_schedule'),
    freeze_default: row.freezeDefault,
    freeze_key: key('freeze'),
    initial_supply: `${row.initialSupply}`,
    kyc_key: key('kyc'),
    max_supply: `${row.maxSupply}`,
    memo: entity.memo,
    metadata: Buffer.from(row.metadataHex, 'hex').toString('base64'),
    metadata_key: key('metadata'),
    modified_timestamp: formatTimestamp(row.since > entity.since ? row.since : entity.since),
    name: row.name,
    pause_key: key('pause'),
    pause_status: row.pauseStatus,
    supply_key: key('supply'),
    supply_type: row.supplyType,
    symbol: row.symbol,
    token_id: entityText(token.tokenId),
    total_supply: `${token.totalSupply}`,
    treasury_account_id: entityText(row.treasury),
    type: row.type,
    wipe_key: key('wipe'),
  };
}

/** A Key column as the service shows it: null when unset or the immutable sentinel, else the key object. */
export function encodeKey(hex: string | null): WireJson | null {
  if (hex === null || hex === IMMUTABLE_SENTINEL) return null;
  if (hex === '') return { _type: 'ProtobufEncoded', key: '' };
  // keyObject unwraps only the bare forms; the service also unwraps a one-key KeyList and threshold key.
  const wrapped = /^(32240a221220|2a28080112240a221220)([0-9a-f]{64})$/.exec(hex);
  if (wrapped) return { _type: 'ED25519', key: wrapped[2] as string };
  const wrappedEcdsa = /^(32250a233a21|2a29080112250a233a21)([0-9a-f]{66})$/.exec(hex);
  if (wrappedEcdsa) return { _type: 'ECDSA_SECP256K1', key: wrappedEcdsa[2] as string };
  return keyObject(hex);
}

export function entityText(encoded: bigint): string {
  return formatEntityId(decodeEntityId(encoded));
}
