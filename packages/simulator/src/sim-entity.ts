// An entity (account, contract, token…) as the simulator's store keeps it: what the account route and the
// account.id lookups need, and the row versions a timestamp query reads.
import type { WireJson } from './json.js';

export interface SimEntityInput {
  /** Encoded id (bigint) or `shard.realm.num` text. */
  readonly id: bigint | string;
  /** Raw alias bytes, or the upper-case base32 text form. */
  readonly alias?: Uint8Array | string | null;
  /** 20 bytes, or hex text with or without 0x. */
  readonly evmAddress?: Uint8Array | string | null;
  readonly deleted?: boolean;
  readonly type?: string;
  /** Account body members the row states (memo, key, expiry…), over the account route's defaults. */
  readonly details?: WireJson;
  /** Lower bound of the row's validity (consensus ns): a timestamp query before it does not find the account. */
  readonly since?: bigint;
  /** Every version of the row, current included, ascending by `since` (what a timestamp query reads). */
  readonly versions?: readonly SimEntityVersion[];
}

export interface SimEntityVersion {
  readonly since: bigint;
  readonly details: WireJson;
  readonly balance: bigint | null;
  readonly balanceTimestamp: bigint | null;
}

export interface SimEntity {
  readonly id: bigint;
  readonly aliasHex: string | null;
  readonly evmHex: string | null;
  readonly deleted: boolean;
  readonly type: string;
  readonly details?: WireJson;
  readonly since?: bigint;
  readonly versions?: readonly SimEntityVersion[];
}
