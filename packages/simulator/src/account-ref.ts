// Account references as the service accepts them: in `account.id` values (docs/ledger-api.md §5.1) and in the rewards path
// (docs/ledger-api.md §3.2). Entity ids use packages/ledger-model/src/entity-id.ts; EVM addresses and base32 aliases are handled here.
import { encodeEntityId, parseEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { decodeBase32, toHex } from './bytes.js';

export type AccountRef =
  | { readonly kind: 'id'; readonly id: bigint }
  | { readonly kind: 'evm'; readonly shard: bigint; readonly realm: bigint; readonly hex: string }
  | { readonly kind: 'alias'; readonly shard: bigint; readonly realm: bigint; readonly hex: string };

export type AccountRefParse = { ok: true; ref: AccountRef } | { ok: false; reason: 'format' | 'range' };

const EVM = /^(?:0x|(\d{1,10})\.(?:(\d{1,10})\.)?)?([0-9A-Fa-f]{40})$/;
const ALIAS = /^(?:(\d{1,10})\.(?:(\d{1,10})\.)?)?([A-Z2-7]+)$/;
const MAX_NUM = (1n << 38n) - 1n;

/** An entity id or EVM address; a long-zero address becomes its id (no lookup). */
export function parseIdOrEvm(text: string): AccountRefParse {
  const evm = EVM.exec(text);
  if (evm) return evmRef(evm);
  const parsed = parseEntityId(text);
  if (!parsed.ok) return parsed;
  return { ok: true, ref: { kind: 'id', id: encodeEntityId(parsed.id) } };
}

/** The rewards path: entity id, EVM address or upper-case base32 alias (prefixes must be 0). */
export function parseAccountPath(text: string): AccountRef | null {
  const idOrEvm = parseIdOrEvm(text);
  const evm = EVM.exec(text);
  // An EVM address is only looked up in this shard and realm (0.0), like an alias.
  if (idOrEvm.ok && evm && prefixes(evm).some((p) => p !== 0n)) return null;
  if (idOrEvm.ok) return idOrEvm.ref;
  if (idOrEvm.reason === 'range') return null;
  const alias = ALIAS.exec(text);
  if (!alias) return null;
  const [shard, realm] = prefixes(alias);
  if (shard !== 0n || realm !== 0n) return null;
  const bytes = decodeBase32(alias[3] as string);
  const hex = bytes === null ? null : toHex(bytes);
  return hex === null ? null : { kind: 'alias', shard, realm, hex };
}

function evmRef(match: RegExpExecArray): AccountRefParse {
  const hex = (match[3] as string).toLowerCase();
  const [shard, realm] = prefixes(match);
  if (/^0{24}/.test(hex)) {
    const num = BigInt(`0x${hex.slice(24)}`);
    if (num > MAX_NUM) return { ok: false, reason: 'range' };
    return { ok: true, ref: { kind: 'id', id: num } };
  }
  return { ok: true, ref: { kind: 'evm', shard, realm, hex } };
}

/** `shard.realm.` or `realm.` prefixes; absent parts are 0. */
function prefixes(match: RegExpExecArray): [bigint, bigint] {
  if (match[1] === undefined) return [0n, 0n];
  if (match[2] === undefined) return [0n, BigInt(match[1])];
  return [BigInt(match[1]), BigInt(match[2])];
}
