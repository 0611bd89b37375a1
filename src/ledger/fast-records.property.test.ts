// Differential property test of the record fast path: random and mutated records (fields missing, null, of the
// wrong type, out of range, huge integers on the wire, unknown members) must come out of parsePageText exactly as
// the reference reads them — every record through the zod schema, from the body parsed with unsafe integers
// quoted — and a record the fast path accepts must be the one zod makes of it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkStakingReward, checkTransaction, UNSAFE_INTEGER } from './fast-records.js';
import { quoteUnsafeIntegers } from './json.js';
import { invalidRecord, parsePageText, type Endpoint, type InvalidRecord } from './page.js';
import { LENIENT_TRANSACTION_FIELDS, StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';

// Integers beyond 2^53 must reach the text as bare digits: they are carried as a marked string until then.
const BIG = '\u0000big:';
const big = (n: bigint) => `${BIG}${n}`;

function toWireText(body: unknown): string {
  const text = JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? big(v) : v));
  return text.replace(/"\\u0000big:(-?\d+)"/g, '$1');
}

const junk = fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, '', 'x', [], {}, { a: 1 }, [1]);
const digits = (min: number, max: number) =>
  fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`)).filter((s) => s.length >= min);

/** A member's usual values, and the unusual ones a mutation puts in its place. */
interface Member {
  readonly valid: fc.Arbitrary<unknown>;
  readonly wild: fc.Arbitrary<unknown>;
}
const member = (valid: fc.Arbitrary<unknown>, wild: fc.Arbitrary<unknown>): Member => ({
  valid,
  wild: fc.oneof(wild, junk),
});

const entity = member(
  fc.oneof(
    fc.constantFrom('0.0.3', '0.0.98', '0.0.800', '0.0.1001', '0.0.1002'),
    fc.tuple(digits(1, 10), digits(1, 10), digits(1, 10)).map((p) => p.join('.')),
  ),
  fc.oneof(
    fc.tuple(digits(0, 12), digits(0, 12), digits(0, 12)).map((p) => p.join('.')),
    fc.constantFrom('0.0', '0.0.1.2', '0.0.x', ' 0.0.1', '0.0.1\n', '١.٢.٣', 1001),
  ),
);
const timestamp = member(
  fc.oneof(
    fc.tuple(digits(10, 10), digits(9, 9)).map(([sec, ns]) => `${sec}.${ns}`),
    fc.tuple(digits(1, 19), fc.option(digits(1, 9))).map(([sec, ns]) => (ns === null ? sec : `${sec}.${ns}`)),
  ),
  fc.oneof(
    fc.tuple(digits(0, 21), digits(0, 11)).map(([sec, ns]) => `${sec}.${ns}`),
    fc.constantFrom('1565779444.', '.5', '1e9', '-1.5', 1565779444.5),
  ),
);
/** Wire forms of an int64: safe numbers, huge literals (beyond 2^53), digit strings; and the near misses. */
const int64 = member(
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(big) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String) },
    { weight: 1, arbitrary: fc.constantFrom('100000000', '120') },
  ),
  fc.oneof(
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(big),
    fc.bigInt({ min: -(10n ** 21n), max: 10n ** 21n }).map(String),
    fc.constantFrom(2 ** 53, -(2 ** 60), 1.5, 1e21, -0, '', '-', '1e5', ' 1', '+1', '0x10', '1.0'),
    fc.constantFrom(...['9999999999999999999', '10000000000000000000'].flatMap((d) => [d, `-${d}`])), // 19-digit edge
  ),
);
const bool = member(fc.boolean(), fc.constantFrom('true', 0, 1));
const text = member(fc.string({ maxLength: 12 }), fc.constantFrom(5, true));
const extra = fc.dictionary(
  fc.constantFrom('future_field', 'high_volume', 'memo', 'links'),
  fc.oneof(junk, fc.string()),
  { maxKeys: 2 },
);

/**
 * A record of usual values (optional members absent now and then), with up to two members mutated — set to an
 * unusual value, to null, or deleted — and unknown members now and then.
 */
function recordOf(
  members: Record<string, Member>,
  required: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(members);
  const valid = Object.fromEntries(keys.map((k) => [k, (members[k] as Member).valid]));
  const mutation = fc
    .constantFrom(...keys)
    .chain((k) =>
      fc.tuple(fc.constant(k), fc.oneof((members[k] as Member).wild, fc.constant(null), fc.constant(DELETE))),
    );
  return fc
    .tuple(
      fc.record(valid, { requiredKeys: required as string[] }),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 2 }) },
      ),
      extra,
    )
    .map(([r, mutations, more]) => {
      const out: Record<string, unknown> = { ...r, ...more };
      for (const [k, v] of mutations) {
        if (v === DELETE) delete out[k];
        else out[k] = v;
      }
      return out;
    });
}
const DELETE = Symbol('delete');

const nested = (item: fc.Arbitrary<unknown>) =>
  member(fc.array(item, { maxLength: 4 }), fc.constantFrom({}, 'x', [null], [1]));
const transfer = recordOf({ account: entity, amount: int64, is_approval: bool }, ['account', 'amount']);
const tokenTransfer = recordOf({ token_id: entity, account: entity, amount: int64, is_approval: bool }, [
  'token_id',
  'account',
  'amount',
]);
const nftTransfer = recordOf(
  {
    is_approval: bool,
    receiver_account_id: entity,
    sender_account_id: entity,
    serial_number: int64,
    token_id: entity,
  },
  ['receiver_account_id', 'sender_account_id', 'serial_number', 'token_id'],
);
const stakingTransfer = recordOf(
  { account: member(fc.oneof(entity.valid, fc.integer({ min: 0, max: 5000 })), entity.wild), amount: int64 },
  ['account', 'amount'],
);
const maxCustomFee = recordOf({ account_id: entity, amount: int64, denominating_token_id: entity }, [
  'account_id',
  'amount',
  'denominating_token_id',
]);
const transactionId = member(
  fc.tuple(entity.valid, digits(1, 19), digits(1, 9)).map(([p, sec, ns]) => `${String(p)}-${sec}-${ns}`),
  fc.oneof(
    fc.tuple(entity.wild, digits(0, 20), digits(0, 10)).map(([p, sec, ns]) => `${String(p)}-${sec}-${ns}`),
    fc.constantFrom('0.0.8@1565779444.711927000', '0.0.8-1565779444'),
  ),
);
const batchKey = member(
  fc.oneof(fc.constantFrom('0xabcdef', '0x'), recordOf({ _type: text, key: text }, ['_type', 'key'])),
  fc.constantFrom('abcdef', '0xZZ', { _type: 1, key: 'k' }),
);

const transaction = recordOf(
  {
    batch_key: batchKey,
    bytes: text,
    charged_tx_fee: int64,
    consensus_timestamp: timestamp,
    entity_id: entity,
    max_custom_fees: nested(maxCustomFee),
    max_fee: int64,
    memo_base64: text,
    name: member(fc.constantFrom('CRYPTOTRANSFER', 'CONTRACTCALL', 'TOKENMINT'), fc.constant(7)),
    nft_transfers: nested(nftTransfer),
    node: entity,
    nonce: member(fc.nat(5), fc.constantFrom(-1, 1.5, 2 ** 53, '1')),
    parent_consensus_timestamp: timestamp,
    result: member(fc.constantFrom('SUCCESS', 'INSUFFICIENT_PAYER_BALANCE'), fc.constant(22)),
    scheduled: bool,
    staking_reward_transfers: nested(stakingTransfer),
    transaction_hash: text,
    transaction_id: transactionId,
    token_transfers: nested(tokenTransfer),
    transfers: nested(transfer),
    valid_duration_seconds: int64,
    valid_start_timestamp: timestamp,
  },
  ['charged_tx_fee', 'consensus_timestamp', 'name', 'result', 'transaction_id', 'transfers'],
);

const reward = recordOf({ account_id: entity, amount: int64, timestamp }, [
  'account_id',
  'amount',
  'timestamp',
]);

const SCHEMAS = { transactions: Transaction, rewards: StakingReward } as const;

function readString(raw: unknown, field: string): string | null {
  const value = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' ? value.slice(0, 100) : null;
}

/** What parsePageText must give: every record through zod, read from the body with unsafe integers quoted. */
function referencePage(endpoint: 'transactions' | 'rewards', text: string) {
  const body = JSON.parse(quoteUnsafeIntegers(text)) as Record<string, unknown[]>;
  const records: unknown[] = [];
  const invalid: Omit<InvalidRecord, 'raw'>[] = [];
  const degraded: { index: number; field: string; timestamp: string | null }[] = [];
  (body[endpoint] ?? []).forEach((raw, index) => {
    const result = SCHEMAS[endpoint].safeParse(raw);
    if (result.success) {
      records.push(result.data);
      if (endpoint === 'transactions')
        for (const field of LENIENT_TRANSACTION_FIELDS) {
          const wire = (raw as Record<string, unknown>)[field];
          if (wire !== undefined && (result.data as Record<string, unknown>)[field] === undefined)
            degraded.push({ index, field, timestamp: readString(raw, 'consensus_timestamp') });
        }
      return;
    }
    invalid.push(invalidRecord(endpoint, index, raw, result.error.issues[0]));
  });
  return { records, invalid, degraded };
}

function pageOf(endpoint: Endpoint, items: unknown[]): string {
  return toWireText({ [endpoint]: items, links: { next: null } });
}

function expectSameAsReference(endpoint: 'transactions' | 'rewards', items: unknown[]): void {
  const text = pageOf(endpoint, items);

  const page = parsePageText(endpoint, '/p', text);
  const expected = referencePage(endpoint, text);

  expect(page.records).toEqual(expected.records);
  expect(page.invalid.map(({ raw: _raw, ...rest }) => rest)).toEqual(expected.invalid);
  expect(page.degraded).toEqual(expected.degraded);
}

const RUNS = { numRuns: 400, seed: 20, endOnFailure: true };

describe('the fast path and zod read every page alike (property)', () => {
  it('transactions pages: same records, same quarantined records, same degraded fields', () => {
    fc.assert(
      fc.property(fc.array(transaction, { minLength: 1, maxLength: 4 }), (items) => {
        expectSameAsReference('transactions', items);
      }),
      RUNS,
    );
  });

  it('staking reward pages', () => {
    fc.assert(
      fc.property(fc.array(reward, { minLength: 1, maxLength: 4 }), (items) => {
        expectSameAsReference('rewards', items);
      }),
      RUNS,
    );
  });

  it('a transaction the fast path accepts is exactly what zod makes of it', () => {
    let accepted = 0;
    fc.assert(
      fc.property(transaction, (item) => {
        const raw = JSON.parse(quoteUnsafeIntegers(toWireText(item))) as unknown;

        const fast = checkTransaction(raw);
        const slow = Transaction.safeParse(raw);

        // A record left to zod (undefined), or holding an integer beyond 2^53 even quoted (`1e+21` is no digit
        // run), is zod's to judge.
        if (fast !== undefined && fast !== UNSAFE_INTEGER) {
          accepted++;
          expect(slow.success ? slow.data : 'rejected by zod').toEqual(fast);
        }
      }),
      { ...RUNS, numRuns: 2000 },
    );

    // Not vacuous: a good share of the records takes the fast path.
    expect(accepted).toBeGreaterThan(200);
  });

  it('a reward the fast path accepts is exactly what zod makes of it', () => {
    let accepted = 0;
    fc.assert(
      fc.property(reward, (item) => {
        const raw = JSON.parse(quoteUnsafeIntegers(toWireText(item))) as unknown;

        const fast = checkStakingReward(raw);
        const slow = StakingReward.safeParse(raw);

        if (fast !== undefined && fast !== UNSAFE_INTEGER) {
          accepted += 1;
          expect(slow.success ? slow.data : 'rejected by zod').toEqual(fast);
        }
      }),
      RUNS,
    );

    // Not vacuous: a good share of the rewards takes the fast path (the comparison above ran on them).
    expect(accepted).toBeGreaterThan(RUNS.numRuns / 10);
  });
});
