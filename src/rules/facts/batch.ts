// Where a record stands in an atomic batch (HIP-551): the ATOMICBATCH record itself ("outer"), one of the
// transactions it carried ("inner", each with its own payer and transaction id), or neither. Read from what the
// record holds, tolerantly: services before batches send no batch_key, older ones send it as 0x-hex, newer ones
// as a key object (rules/README.md, `batch`).
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';

export type BatchRole = 'inner' | 'outer';

export const ATOMIC_BATCH_TYPE = 'ATOMICBATCH';

/**
 * `outer` for the ATOMICBATCH record; `inner` for a record with a batch key, or, when the service sent no
 * readable batch_key (absent or of an unknown shape: undefined), for a record of its own (nonce 0) that names a
 * parent: a contract call's child records share their parent's id and carry nonce > 0. An explicit null
 * batch_key is the service saying "no batch".
 */
export function batchRole(tx: Transaction): BatchRole | undefined {
  if (tx.name === ATOMIC_BATCH_TYPE) return 'outer';
  const key = tx.batch_key;
  if (key !== undefined) return key === null ? undefined : 'inner';
  const parent = tx.parent_consensus_timestamp ?? null;
  return parent !== null && tx.nonce === 0 && !tx.scheduled ? 'inner' : undefined;
}

/**
 * The batch key in words, the same for both forms the service has sent: `ED25519 bfc9…` (`_type` and `key` of
 * the key object). The older `0x`-hex is a protobuf Key: an ED25519 key (field 2, 32 bytes) or a compressed
 * ECDSA secp256k1 key (field 7, 33 bytes) is unwrapped like the newer service does, anything else is
 * `ProtobufEncoded <hex>`. '' when the record has none (or none the daemon can read).
 */
export function batchKeyText(key: Transaction['batch_key']): string {
  if (key === undefined || key === null) return '';
  if (typeof key !== 'string') return `${key._type} ${key.key}`;
  const hex = key.slice(2).toLowerCase();
  if (hex.length === 4 + 64 && hex.startsWith('1220')) return `ED25519 ${hex.slice(4)}`;
  if (hex.length === 4 + 66 && hex.startsWith('3a21')) return `ECDSA_SECP256K1 ${hex.slice(4)}`;
  return hex === '' ? '' : `ProtobufEncoded ${hex}`;
}

/** The batch's consensus timestamp: the record's own for the batch, its parent's for an inner record. */
export function batchTimestamp(tx: Transaction, role: BatchRole | undefined): string {
  if (role === 'outer') return tx.consensus_timestamp;
  if (role === 'inner') return tx.parent_consensus_timestamp ?? '';
  return '';
}
