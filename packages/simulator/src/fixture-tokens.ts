// The token and balance rows of a spec setup (docs/simulator.md, "Tokens and balances"): `tokens` (with their
// custom-fee schedules), token `entities`, `tokenaccounts`, `balances` (account_balance + token_balance snapshots)
// and the balance columns of `accounts` and `contracts`, with the service's own defaults.
import type { BalanceBook } from './balance-book.js';
import { bytesInput, entityInput, intInput, isHistoryRow, items, nullableInt } from './fixture-values.js';
import { toHex } from './bytes.js';
import {
  entityText,
  type SimFeeSchedule,
  type SimToken,
  type SimTokenEntityRow,
  type SimTokenRow,
  type TokenKeyName,
  type TokenType,
} from './token-json.js';

type Row = Record<string, unknown>;

const DEFAULT_PUBLIC_KEY = '4a5ad514f0957fa170a676210c9bdbddf3bc9519702cf915fa6767a40463b96f';
const KEY_COLUMNS: ReadonlyArray<[TokenKeyName, string]> = [
  ['fee_schedule', 'fee_schedule_key'],
  ['freeze', 'freeze_key'],
  ['kyc', 'kyc_key'],
  ['metadata', 'metadata_key'],
  ['pause', 'pause_key'],
  ['supply', 'supply_key'],
  ['wipe', 'wipe_key'],
];

/** Loads the setup's token and balance rows into the book. */
export function loadTokenFixtures(book: BalanceBook, setup: Row): void {
  for (const item of items(setup.accounts)) addHbar(book, item, DEFAULT_PUBLIC_KEY);
  for (const item of items(setup.contracts)) addHbar(book, item, null);
  for (const item of items(setup.balances)) addSnapshot(book, item);
  const entities = items(setup.entities).filter((e) => e.type === 'TOKEN');
  const byToken = new Map<bigint, Row[]>();
  for (const item of items(setup.tokens)) {
    const id = entityInput(item.token_id) ?? 0n;
    byToken.set(id, [...(byToken.get(id) ?? []), item]);
  }
  for (const [tokenId, rows] of byToken) book.putToken(token(tokenId, rows, entities));
  for (const item of items(setup.tokenaccounts)) {
    if (isHistoryRow(item)) continue;
    book.setTokenAccount({
      tokenId: entityInput(item.token_id) ?? 0n,
      accountId: entityInput(item.account_id) ?? 0n,
      balance: intInput(item.balance, 0n),
      balanceTimestamp: intInput(item.balance_timestamp, 0n),
      associated: item.associated === undefined ? true : item.associated === true,
    });
  }
}

function encodedId(item: Row): bigint {
  const num = intInput(item.num ?? item.id, 0n);
  return (intInput(item.shard, 0n) << 54n) | (intInput(item.realm, 0n) << 38n) | num;
}

function addHbar(book: BalanceBook, item: Row, defaultKey: string | null): void {
  if (isHistoryRow(item)) return;
  const id = encodedId(item);
  book.setHbar(id, nullableInt(item.balance), nullableInt(item.balance_timestamp));
  const key = item.public_key === undefined ? defaultKey : item.public_key;
  book.setPublicKey(id, typeof key === 'string' ? key : null);
}

function addSnapshot(book: BalanceBook, item: Row): void {
  book.addSnapshot({
    timestamp: intInput(item.timestamp, 0n),
    accountId: entityInput(String(item.id ?? '0')) ?? 0n,
    balance: intInput(item.balance, 0n),
    tokens: items(item.tokens).map((t) => ({
      tokenId: entityInput(t.token_num) ?? 0n,
      balance: intInput(t.balance, 0n),
    })),
  });
}

function token(tokenId: bigint, items: Row[], entityItems: Row[]): SimToken {
  const rows = items.map(tokenRow).sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
  const entities = entityItems
    .filter((e) => encodedId(e) === tokenId)
    .map(entityRow)
    .sort((a, b) => (a.since < b.since ? -1 : 1));
  const fees: SimFeeSchedule[] = [];
  for (const item of items) {
    const schedules = Array.isArray(item.custom_fees) ? (item.custom_fees as Row[]) : null;
    if (schedules === null)
      fees.push({ since: intInput(item.created_timestamp, 0n), fixed: [], fractional: [], royalty: [] });
    else for (const schedule of schedules) fees.push(feeSchedule(tokenId, schedule));
  }
  fees.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
  const current = items.find((i) => !isHistoryRow(i)) ?? items[items.length - 1] ?? {};
  return { tokenId, rows, entities, fees, totalSupply: intInput(current.total_supply, 1000000n) };
}

function tokenRow(item: Row): SimTokenRow {
  const nft = item.type === 'NON_FUNGIBLE_UNIQUE';
  const created = intInput(item.created_timestamp, 0n);
  const keys = Object.fromEntries(KEY_COLUMNS.map(([name, column]) => [name, byteaHex(item[column])]));
  return {
    since: rangeLower(item.timestamp_range) ?? created,
    name: typeof item.name === 'string' ? item.name : 'Token name',
    symbol: typeof item.symbol === 'string' ? item.symbol : 'YBTJBOAZ',
    decimals: nft ? 0n : intInput(item.decimals, 1000n),
    type: (nft ? 'NON_FUNGIBLE_UNIQUE' : 'FUNGIBLE_COMMON') as TokenType,
    supplyType: item.supply_type === 'FINITE' ? 'FINITE' : 'INFINITE',
    initialSupply: nft ? 0n : intInput(item.initial_supply, 1000000n),
    maxSupply: intInput(item.max_supply, 9223372036854775807n),
    treasury: entityInput(item.treasury_account_id) ?? 98n,
    createdTimestamp: created,
    freezeDefault: item.freeze_default === true,
    pauseStatus: (typeof item.pause_status === 'string'
      ? item.pause_status
      : 'NOT_APPLICABLE') as SimTokenRow['pauseStatus'],
    keys: keys as SimTokenRow['keys'],
    metadataHex: toHex(bytesInput(item.metadata ?? [])) ?? '',
  };
}

function entityRow(item: Row): SimTokenEntityRow {
  return {
    since: rangeLower(item.timestamp_range) ?? 0n,
    adminKeyHex: byteaHex(item.key),
    autoRenewAccount: entityInput(item.auto_renew_account_id) || null,
    autoRenewPeriod: nullableInt(item.auto_renew_period),
    deleted: item.deleted === undefined ? false : (item.deleted as boolean | null),
    expirationTimestamp: nullableInt(item.expiration_timestamp),
    memo: typeof item.memo === 'string' ? item.memo : 'entity memo',
  };
}

function feeSchedule(tokenId: bigint, item: Row): SimFeeSchedule {
  const collector = (fee: Row) => entityText(entityInput(fee.collector_account_id) ?? 300n);
  const optionalId = (value: unknown) => {
    const id = entityInput(value);
    return id === null ? null : entityText(id);
  };
  const exempt = (fee: Row) => fee.all_collectors_are_exempt === true;
  return {
    since: rangeLower(item.timestamp_range) ?? 0n,
    fixed: items(item.fixed_fees).map((fee) => ({
      all_collectors_are_exempt: exempt(fee),
      amount: fee.amount,
      collector_account_id: collector(fee),
      denominating_token_id: optionalId(fee.denominating_token_id),
    })),
    fractional: items(item.fractional_fees).map((fee) => ({
      all_collectors_are_exempt: exempt(fee),
      amount: { denominator: fee.denominator, numerator: fee.numerator },
      collector_account_id: collector(fee),
      denominating_token_id: entityText(tokenId),
      maximum: fee.maximum_amount ?? null,
      minimum: fee.minimum_amount,
      net_of_transfers: fee.net_of_transfers === true,
    })),
    royalty: items(item.royalty_fees).map((fee) => {
      const fallback = (fee.fallback_fee ?? null) as Row | null;
      const amount = fallback?.amount;
      return {
        all_collectors_are_exempt: exempt(fee),
        amount: { denominator: fee.denominator, numerator: fee.numerator },
        collector_account_id: collector(fee),
        fallback_fee:
          amount === undefined || amount === null || amount === 0n || amount === 0
            ? null
            : { amount, denominating_token_id: optionalId(fallback?.denominating_token_id) },
      };
    }),
  };
}

export function rangeLower(range: unknown): bigint | null {
  if (typeof range !== 'string') return null;
  const match = /^[[(]\s*(\d+)/.exec(range.trim());
  return match ? BigInt(match[1] as string) : null;
}

/**
 * A bytea column as PostgreSQL reads the value the setup gives: an array is written as an array literal
 * (`{"1","2"}`), text as `\x` hex or escape format (`\ooo` octal, `\\`), bytes as they are.
 */
export function byteaHex(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value))
    return Buffer.from(`{${value.map((v) => `"${String(v)}"`).join(',')}}`).toString('hex');
  const text = String(value);
  if (text.startsWith('\\x')) return text.slice(2).toLowerCase();
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === '\\') {
      bytes.push(0x5c);
      i++;
    } else if (text[i] === '\\' && /^[0-7]{3}$/.test(text.slice(i + 1, i + 4))) {
      bytes.push(Number.parseInt(text.slice(i + 1, i + 4), 8));
      i += 3;
    } else bytes.push(...Buffer.from(text[i] as string));
  }
  return Buffer.from(bytes).toString('hex');
}
