// Test hooks: a transaction described by a few fields (a large debit from a given account, a deep call trace)
// becomes overrides for the generator, which fills in everything else and gives it the next timestamps.
import { normalizeEntityId } from '@ledger-sentinel/ledger-model/entity-id';
import { TRANSACTION_TYPES_BY_NAME } from './traffic-mix.js';
import type { Population, SimAccount } from './traffic-population.js';
import type { Leg } from './traffic-record.js';
import type { GeneratedRecord, RecordOverrides } from './generated-record.js';

export interface InjectSpec {
  /** A transaction type name, default CRYPTOTRANSFER. */
  readonly type?: string;
  /** Payer `0.0.N`; default a random account of the population. */
  readonly payer?: string;
  /**
   * A result name. Without one the traffic draws it like any generated record: SUCCESS, or at the traffic's
   * failure rate (5 % by default) a failure of the type; give `result: 'SUCCESS'` when a test needs a success.
   */
  readonly result?: string;
  /** HBAR legs besides the fee legs (which are always added from the payer, unless fee is 0). */
  readonly transfers?: readonly { readonly account: string; readonly amount: bigint | number | string }[];
  readonly memo?: string | Uint8Array;
  /** Tinybars; default a generated fee. */
  readonly fee?: bigint | number | string;
  /** Contract types: the deepest call_depth of the trace. */
  readonly traceDepth?: number;
  /** Carried into the ground truth, so a test can find what it injected. */
  readonly tag?: string;
  /**
   * Members replacing those of the first record's wire JSON, as served (an unreadable or unexpected record:
   * `{ memo_base64: { x: 1 } }`). The ground truth and the indexes still see the record as generated.
   */
  readonly wire?: Readonly<Record<string, unknown>>;
}

function numOf(id: string): number {
  const [shard, realm, num] = normalizeEntityId(id).split('.');
  if (shard !== '0' || realm !== '0')
    throw new RangeError(`inject: only shard 0 realm 0 ids are simulated, got "${id}"`);
  return Number(num);
}

function payerAccount(population: Population, id: string): SimAccount {
  const num = numOf(id);
  return (
    population.accounts.find((a) => a.num === num) ?? { num, alias: null, evmAddress: null, staked: false }
  );
}

export function injectOverrides(spec: InjectSpec, population: Population): RecordOverrides {
  const typeName = (spec.type ?? 'CRYPTOTRANSFER').toUpperCase();
  const type = TRANSACTION_TYPES_BY_NAME.get(typeName);
  if (!type)
    throw new RangeError(
      `inject: unknown transaction type "${spec.type}": use a name from transaction-types.ts`,
    );
  const legs: Leg[] | undefined = spec.transfers?.map((t) => ({
    account: numOf(t.account),
    amount: BigInt(t.amount),
  }));
  const memo = spec.memo === undefined ? undefined : Buffer.from(spec.memo).toString('base64');
  return {
    type,
    ...(spec.payer === undefined ? {} : { payer: payerAccount(population, spec.payer) }),
    ...(spec.result === undefined ? {} : { result: spec.result }),
    ...(legs === undefined ? {} : { legs }),
    ...(memo === undefined ? {} : { memoBase64: memo }),
    ...(spec.fee === undefined ? {} : { fee: BigInt(spec.fee) }),
    ...(spec.traceDepth === undefined ? {} : { traceDepth: spec.traceDepth }),
    ...(spec.tag === undefined ? {} : { tag: spec.tag }),
  };
}

/** A successful CRYPTOTRANSFER debiting `amount` tinybars from `account` (payer) to `to` (default 0.0.1001). */
export function largeDebit(
  account: string,
  amount: bigint | number,
  to = '0.0.1001',
  tag?: string,
): InjectSpec {
  return {
    type: 'CRYPTOTRANSFER',
    // Always a success: tests wait for the large-debit rule (`result: success`) to fire on it.
    result: 'SUCCESS',
    payer: account,
    transfers: [
      { account, amount: -BigInt(amount) },
      { account: to, amount: BigInt(amount) },
    ],
    ...(tag === undefined ? {} : { tag }),
  };
}

/** A successful CONTRACTCALL whose trace reaches call_depth `depth`. */
export function deepCallTrace(depth: number, payer?: string, tag?: string): InjectSpec {
  return {
    type: 'CONTRACTCALL',
    traceDepth: depth,
    result: 'SUCCESS',
    ...(payer === undefined ? {} : { payer }),
    ...(tag === undefined ? {} : { tag }),
  };
}

/** The first record with members of its wire JSON replaced (InjectSpec.wire). */
export function withWire(
  records: GeneratedRecord[],
  wire: Readonly<Record<string, unknown>>,
): GeneratedRecord[] {
  const [first, ...rest] = records;
  if (!first) return records;
  return [{ ...first, tx: { ...first.tx, json: { ...first.tx.json, ...wire } } }, ...rest];
}
