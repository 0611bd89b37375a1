// Records a hostile query service slips into a page: one far in the future, and malformed ones of several shapes.
// They are built from a real record of the page's account (or any record seen), so every other field is plausible;
// their memo is never a marker's, so a daemon that alerts on them shows up as an unexpected alert.
import { createRng } from '@ledger-sentinel/simulator/rng';

export type JsonRecord = Record<string, unknown>;

const SECONDS_PER_YEAR = 31_557_600;

/** A record of the service's shape, for a page seen before any real record (futureRecord sets what matters). */
export const FALLBACK_TEMPLATE: JsonRecord = {
  batch_key: null,
  bytes: null,
  charged_tx_fee: 100_000,
  consensus_timestamp: '1700000000.000000000',
  entity_id: null,
  max_custom_fees: [],
  max_fee: '100000000',
  memo_base64: '',
  name: 'CRYPTOTRANSFER',
  nft_transfers: [],
  node: '0.0.4',
  nonce: 0,
  parent_consensus_timestamp: null,
  result: 'SUCCESS',
  scheduled: false,
  staking_reward_transfers: [],
  token_transfers: [],
  transaction_hash: Buffer.alloc(48, 7).toString('base64'),
  transaction_id: '0.0.4-1699999999-000000000',
  transfers: [],
  valid_duration_seconds: '120',
  valid_start_timestamp: '1699999999.000000000',
};

function memoBase64(text: string): string {
  return Buffer.from(text).toString('base64');
}

/** Transfers moving 1 tinybar out of `account`, so the record belongs to the faulted stream. */
function ownTransfers(account: string): unknown[] {
  return [
    { account, amount: -1, is_approval: false },
    { account: '0.0.98', amount: 1, is_approval: false },
  ];
}

/** A well-formed record of `account` whose consensus timestamp lies `yearsAhead` years after `nowMs`. */
export function futureRecord(
  template: JsonRecord,
  account: string,
  nowMs: number,
  yearsAhead: number,
): JsonRecord {
  const seconds = Math.floor(nowMs / 1000) + yearsAhead * SECONDS_PER_YEAR;
  return {
    ...template,
    consensus_timestamp: `${seconds}.000000000`,
    valid_start_timestamp: `${seconds - 1}.000000000`,
    transaction_id: `${account}-${seconds - 1}-000000000`,
    memo_base64: memoBase64('fault-future'),
    transfers: ownTransfers(account),
    staking_reward_transfers: [],
    token_transfers: [],
    nft_transfers: [],
  };
}

/** Names only Object.prototype has: as own keys of ledger data they must stay plain data. */
const PROTOTYPE_KEYS: Record<string, unknown> = {
  ['__proto__']: { result: 'INSUFFICIENT_PAYER_BALANCE', polluted: true, transfers: [] },
  constructor: { prototype: { polluted: true } },
  prototype: { polluted: true },
  toString: 'not a function',
  hasOwnProperty: 'not a function',
  valueOf: { amount: 9_999_999 },
};

/** A copy of a record (and of each of its transfers) that also carries PROTOTYPE_KEYS as its own keys. */
export function withPrototypeKeys(record: unknown): unknown {
  if (typeof record !== 'object' || record === null) return record;
  const own = (target: Record<string, unknown>) => {
    for (const [name, value] of Object.entries(PROTOTYPE_KEYS))
      Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
    return target;
  };
  const copy = own({ ...(record as Record<string, unknown>) });
  const transfers = (record as { transfers?: unknown }).transfers;
  if (Array.isArray(transfers))
    copy.transfers = transfers.map((t) =>
      typeof t === 'object' && t !== null ? own({ ...(t as Record<string, unknown>) }) : t,
    );
  return copy;
}

/** A record of `account` broken in one of six ways (MALFORMED_SHAPES in fault-plan.ts). */
export function malformedRecord(template: JsonRecord, account: string, shape: number): unknown {
  const base: JsonRecord = {
    ...template,
    memo_base64: memoBase64('fault-malformed'),
    transfers: ownTransfers(account),
  };
  switch (shape) {
    case 0:
      return { ...base, consensus_timestamp: 'not-a-timestamp' };
    case 1:
      return { ...base, transfers: 'oops' };
    case 2:
      return { ...base, charged_tx_fee: 'a lot', transfers: [{ account, amount: 1.5e300 }] };
    case 3:
      return null;
    case 4: {
      const rest: JsonRecord = { ...base };
      delete rest.consensus_timestamp;
      return rest;
    }
    default:
      return { ...base, transaction_id: 42, result: { nested: true }, name: [] };
  }
}

/** The page's records in reverse, or shuffled by a seeded generator. */
export function reorder(
  records: readonly unknown[],
  order: 'reversed' | 'shuffled',
  seed: number,
): unknown[] {
  const out = [...records];
  if (order === 'reversed') return out.reverse();
  const rng = createRng(`reorder:${seed}`);
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Each record `copies` times, in place (a page listing a row twice). */
export function duplicate(records: readonly unknown[], copies: number): unknown[] {
  return records.flatMap((r) => Array.from({ length: copies }, () => r));
}
