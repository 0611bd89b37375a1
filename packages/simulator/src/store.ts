// The simulator's in-memory ledger: API-shaped records plus the internal columns and indexes the three query
// routes need. Everything is keyed by exact nanosecond bigints and encoded entity ids (packages/ledger-model/src/entity-id.ts).
//
// Visibility (ingestion lag, late records): a record is served only when
//   1. `visibleUntil` is null or its consensus timestamp is <= visibleUntil (a global ingestion watermark), and
//   2. its own `visibleAt` is absent or <= the request's "now" (ns on the server clock).
// Records are immutable once added; the wire JSON of a transaction is serialized once, when it is first served.
//
// Retention: `pruneBefore(ns)` drops every record older than a consensus timestamp, with its index entries; the
// living ledger calls it to keep a horizon (the real service keeps everything, so older ranges answer empty here).
import { decodeBase32, toHex } from './bytes.js';
import { shapeTransaction, type HighVolume, type ServiceVersion } from './service-version.js';
import { serializeJson, type WireJson } from './json.js';
import { dropOlder, lowerBound, upperBound } from './sorted.js';
import { BalanceBook } from './balance-book.js';

export type { WireJson } from './json.js';
export type { SimEntity, SimEntityInput, SimEntityVersion } from './sim-entity.js';
import type { SimEntity, SimEntityInput } from './sim-entity.js';

/** A `crypto_transfer` row (HBAR leg) or the account part of a `token_transfer` row. */
export interface SimTransferRow {
  /** Encoded entity id of the account (packages/ledger-model/src/entity-id.ts encodeEntityId). */
  readonly account: bigint;
  readonly amount: bigint;
}

export interface SimTokenTransferRow extends SimTransferRow {
  readonly tokenId: bigint;
}

/**
 * One transaction: exactly what /api/v1/transactions returns for it (`json`), plus the columns queries use.
 * Build one from row-like input with `makeSimTransaction` (transaction-json.ts) or assemble it yourself.
 */
export interface SimTransaction {
  readonly consensusTimestamp: bigint;
  /** Encoded payer account id. */
  readonly payer: bigint;
  readonly type: number;
  readonly result: number;
  readonly nonce: number;
  readonly parentConsensusTimestamp: bigint | null;
  readonly validStartNs: bigint;
  /** crypto_transfer rows (fee legs included), as the account.id and type=credit|debit filters see them. */
  readonly transfers: readonly SimTransferRow[];
  /** Fungible token_transfer rows. NFT transfers never match account filters (docs/ledger-api.md §5.3). */
  readonly tokenTransfers: readonly SimTokenTransferRow[];
  readonly json: WireJson;
  /** Served only once the request clock reaches this (ns); absent = always. */
  readonly visibleAt?: bigint;
  /** High-volume pricing as the current service shows it; absent = not applied. */
  readonly highVolume?: HighVolume;
}

export interface SimReward {
  readonly accountId: bigint;
  readonly amount: bigint;
  /** Consensus timestamp of the payout, ns. */
  readonly timestamp: bigint;
  readonly visibleAt?: bigint;
}

export interface SimRewardInput {
  readonly accountId: bigint | string;
  readonly amount: bigint | number;
  readonly timestamp: bigint;
  readonly visibleAt?: bigint;
}

/** One contract_action row: `json` is exactly the /actions item. */
export interface SimContractAction {
  readonly consensusTimestamp: bigint;
  /** Encoded payer account id of the parent transaction. */
  readonly payer: bigint;
  readonly index: number;
  readonly json: WireJson;
  readonly visibleAt?: bigint;
}

export interface SimHashLink {
  readonly consensusTimestamp: bigint;
  /** Encoded payer account id. */
  readonly payer: bigint;
  readonly visibleAt?: bigint;
}

/** A transaction as stored: the record plus its UTF-8 JSON, serialized when first served. */
export interface StoredTransaction {
  readonly tx: SimTransaction;
  /** Null until the first page that contains it is served. */
  bytes: Buffer | null;
  /** The same in the current service shape (service-version.ts), null until first served so. */
  current?: Buffer | null;
}

export interface ScanOptions {
  /** Inclusive bounds, ns; null = open. */
  readonly lower: bigint | null;
  readonly upper: bigint | null;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  /** Request clock, ns, for per-record visibility. */
  readonly nowNs: bigint;
  /** When set, only transactions in the union index of these accounts are candidates (OR-ed). */
  readonly accounts?: readonly bigint[];
}

const TX_LOOKUP_WINDOW_NS = 35n * 60n * 1_000_000_000n;

export class SimulatorStore {
  /** Global ingestion watermark (consensus ns); null = everything added is ingested. */
  visibleUntil: bigint | null = null;
  /** HBAR and token balances, tokens and balance snapshots (balance-book.ts). */
  readonly balances = new BalanceBook();

  private readonly txs: StoredTransaction[] = [];
  private readonly byTimestamp = new Map<bigint, StoredTransaction>();
  /** Union index per encoded account: payer (if payer-eligible), HBAR transfer or token transfer; sorted asc. */
  private readonly byAccount = new Map<bigint, StoredTransaction[]>();
  private readonly byPayerValidStart = new Map<string, StoredTransaction[]>();
  private readonly entities = new Map<bigint, SimEntity>();
  private readonly rewardsByAccount = new Map<bigint, SimReward[]>();
  private readonly actionsByTx = new Map<string, SimContractAction[]>();
  private readonly hashLinks = new Map<string, SimHashLink[]>();

  get transactionCount(): number {
    return this.txs.length;
  }

  /** Adds a transaction; consensus timestamps are unique (docs/ledger-api.md §15), a duplicate throws. */
  addTransaction(tx: SimTransaction): void {
    if (this.byTimestamp.has(tx.consensusTimestamp)) {
      throw new Error(
        `duplicate consensus timestamp ${tx.consensusTimestamp}: timestamps are unique per transaction`,
      );
    }
    const stored: StoredTransaction = { tx, bytes: null };
    this.byTimestamp.set(tx.consensusTimestamp, stored);
    insertSorted(this.txs, stored);
    for (const account of unionAccounts(tx)) {
      const list = this.byAccount.get(account);
      if (list) insertSorted(list, stored);
      else this.byAccount.set(account, [stored]);
    }
    const key = `${tx.payer}-${tx.validStartNs}`;
    const sameId = this.byPayerValidStart.get(key);
    if (sameId) sameId.push(stored);
    else this.byPayerValidStart.set(key, [stored]);
  }

  addEntity(input: SimEntityInput): void {
    const entity: SimEntity = {
      id: typeof input.id === 'bigint' ? input.id : encodeText(input.id),
      aliasHex: toAliasHex(input.alias),
      evmHex: toHex(input.evmAddress),
      deleted: input.deleted ?? false,
      type: input.type ?? 'ACCOUNT',
      ...(input.details === undefined ? {} : { details: input.details }),
      ...(input.since === undefined ? {} : { since: input.since }),
      ...(input.versions === undefined ? {} : { versions: input.versions }),
    };
    this.entities.set(entity.id, entity);
  }

  addReward(input: SimRewardInput): void {
    const reward: SimReward = {
      accountId: typeof input.accountId === 'bigint' ? input.accountId : encodeText(input.accountId),
      amount: BigInt(input.amount),
      timestamp: input.timestamp,
      ...(input.visibleAt === undefined ? {} : { visibleAt: input.visibleAt }),
    };
    const list = this.rewardsByAccount.get(reward.accountId) ?? [];
    const at = upperBound(list, reward.timestamp, (r) => r.timestamp);
    list.splice(at, 0, reward);
    this.rewardsByAccount.set(reward.accountId, list);
  }

  addContractActions(actions: readonly SimContractAction[]): void {
    for (const action of actions) {
      const key = `${action.consensusTimestamp}:${action.payer}`;
      const list = this.actionsByTx.get(key) ?? [];
      const at = upperBound(list, BigInt(action.index), (a) => BigInt(a.index));
      list.splice(at, 0, action);
      this.actionsByTx.set(key, list);
    }
  }

  /** Links a 32-byte hash (bytes or hex, 0x optional) to a transaction, as contract_transaction_hash does. */
  addContractTransactionHash(hash: Uint8Array | string, link: SimHashLink): void {
    const key = toHex(hash);
    if (key === null) throw new Error('contract transaction hash is empty: pass 32 bytes or 64 hex digits');
    const list = this.hashLinks.get(key) ?? [];
    const at = upperBound(list, link.consensusTimestamp, (l) => l.consensusTimestamp);
    list.splice(at, 0, link);
    this.hashLinks.set(key, list);
  }

  /** True when the record is served at request time `nowNs`. */
  isVisible(consensusTimestamp: bigint, visibleAt: bigint | undefined, nowNs: bigint): boolean {
    if (this.visibleUntil !== null && consensusTimestamp > this.visibleUntil) return false;
    return visibleAt === undefined || visibleAt <= nowNs;
  }

  /** Walks transactions within [lower, upper] in order, yielding visible ones that pass `accept`, up to limit. */
  scanTransactions(options: ScanOptions, accept: (tx: SimTransaction) => boolean): StoredTransaction[] {
    const source = options.accounts ? this.accountCandidates(options.accounts) : this.txs;
    const from = options.lower === null ? 0 : lowerBound(source, options.lower, stamp);
    const to = options.upper === null ? source.length : upperBound(source, options.upper, stamp);
    const page: StoredTransaction[] = [];
    const asc = options.order === 'asc';
    for (let i = asc ? from : to - 1; asc ? i < to : i >= from; i += asc ? 1 : -1) {
      const stored = source[i] as StoredTransaction;
      const { tx } = stored;
      if (!this.isVisible(tx.consensusTimestamp, tx.visibleAt, options.nowNs) || !accept(tx)) continue;
      page.push(stored);
      if (page.length >= options.limit) break;
    }
    return page;
  }

  /** The UTF-8 JSON of a stored transaction, serialized once, on first use; pages are concatenated from these. */
  transactionBytes(stored: StoredTransaction, version: ServiceVersion = '0.129'): Buffer {
    if (version === 'current') {
      stored.current ??= Buffer.from(
        serializeJson(shapeTransaction(stored.tx.json, version, stored.tx.highVolume)),
      );
      return stored.current;
    }
    stored.bytes ??= Buffer.from(serializeJson(stored.tx.json));
    return stored.bytes;
  }

  /** Consensus timestamp of the n-th newest transaction (1 = newest), or undefined when fewer are stored. */
  nthNewestTimestamp(n: number): bigint | undefined {
    const stored = n >= 1 ? this.txs[this.txs.length - n] : undefined;
    return stored?.tx.consensusTimestamp;
  }

  /**
   * Drops every transaction, reward, contract action, hash link and balance snapshot (but the newest) with a
   * consensus timestamp below `ns`, with their index entries; entities, tokens and current balances stay. Returns the number of transactions dropped. Costs a pass over the
   * per-account reward, action and hash maps, so call it in batches rather than per record.
   */
  pruneBefore(ns: bigint): number {
    const cut = lowerBound(this.txs, ns, stamp);
    const dropped = this.txs.splice(0, cut);
    const accounts = new Set<bigint>();
    for (const { tx } of dropped) {
      this.byTimestamp.delete(tx.consensusTimestamp);
      for (const account of unionAccounts(tx)) accounts.add(account);
      const key = `${tx.payer}-${tx.validStartNs}`;
      const sameId = this.byPayerValidStart.get(key)?.filter((kept) => stamp(kept) >= ns) ?? [];
      if (sameId.length > 0) this.byPayerValidStart.set(key, sameId);
      else this.byPayerValidStart.delete(key);
    }
    for (const account of accounts) dropOlder(this.byAccount, account, ns, stamp);
    for (const account of this.rewardsByAccount.keys())
      dropOlder(this.rewardsByAccount, account, ns, (r) => r.timestamp);
    for (const [key, list] of this.actionsByTx) {
      if ((list[0] as SimContractAction).consensusTimestamp < ns) this.actionsByTx.delete(key);
    }
    for (const key of this.hashLinks.keys()) dropOlder(this.hashLinks, key, ns, (l) => l.consensusTimestamp);
    this.balances.pruneSnapshotsBefore(ns);
    return dropped.length;
  }

  /** Smallest visible consensus timestamp, or null when nothing is visible (the 60-day binding's lower default). */
  firstTransactionTimestamp(nowNs: bigint): bigint | null {
    for (const { tx } of this.txs) {
      if (this.isVisible(tx.consensusTimestamp, tx.visibleAt, nowNs)) return tx.consensusTimestamp;
    }
    return null;
  }

  /** Any entity row with that id, deleted or not (the rewards existence check). */
  getEntity(id: bigint): SimEntity | undefined {
    return this.entities.get(id);
  }

  /** Non-deleted entity with these alias bytes (hex) in the given shard/realm. */
  findByAlias(aliasHex: string, shard: bigint, realm: bigint): SimEntity | undefined {
    return this.findEntity((e) => e.aliasHex === aliasHex, shard, realm);
  }

  /** How many non-deleted entities carry these alias bytes in the shard/realm (the service fails on more than one). */
  countAlias(aliasHex: string, shard: bigint, realm: bigint): number {
    let n = 0;
    for (const entity of this.entities.values()) {
      if (entity.deleted || entity.aliasHex !== aliasHex) continue;
      if (entity.id >> 38n === ((shard << 16n) | realm)) n++;
    }
    return n;
  }

  /** Non-deleted entity with this 20-byte EVM address (lower-case hex, no 0x) in the given shard/realm. */
  findByEvmAddress(evmHex: string, shard: bigint, realm: bigint): SimEntity | undefined {
    return this.findEntity((e) => e.evmHex === evmHex, shard, realm);
  }

  /** Rewards of one account in [lower, upper] (ns, inclusive; null = open), ascending, visible only. */
  rewardsOf(accountId: bigint, nowNs: bigint): SimReward[] {
    const list = this.rewardsByAccount.get(accountId) ?? [];
    return list.filter((r) => this.isVisible(r.timestamp, r.visibleAt, nowNs));
  }

  /** Earliest visible hash link for a 32-byte hash (lower-case hex, no 0x). */
  resolveHash(hashHex: string, nowNs: bigint): SimHashLink | undefined {
    const list = this.hashLinks.get(hashHex) ?? [];
    return list.find((l) => this.isVisible(l.consensusTimestamp, l.visibleAt, nowNs));
  }

  /** The first visible transaction with this payer and valid start whose timestamp is within 35 min of it. */
  resolveTransactionId(payer: bigint, validStartNs: bigint, nowNs: bigint): SimTransaction | undefined {
    const list = this.byPayerValidStart.get(`${payer}-${validStartNs}`) ?? [];
    const found = list.find(({ tx }) => {
      const ts = tx.consensusTimestamp;
      const inWindow = ts >= validStartNs && ts <= validStartNs + TX_LOOKUP_WINDOW_NS;
      return inWindow && this.isVisible(ts, tx.visibleAt, nowNs);
    });
    return found?.tx;
  }

  /** Actions of (timestamp, payer), ascending by index, visible only. */
  actionsOf(consensusTimestamp: bigint, payer: bigint, nowNs: bigint): SimContractAction[] {
    const list = this.actionsByTx.get(`${consensusTimestamp}:${payer}`) ?? [];
    return list.filter((a) => this.isVisible(a.consensusTimestamp, a.visibleAt, nowNs));
  }

  private findEntity(test: (e: SimEntity) => boolean, shard: bigint, realm: bigint): SimEntity | undefined {
    for (const entity of this.entities.values()) {
      if (entity.deleted || !test(entity)) continue;
      if (entity.id >> 38n === ((shard << 16n) | realm)) return entity;
    }
    return undefined;
  }

  private accountCandidates(accounts: readonly bigint[]): StoredTransaction[] {
    const unique = [...new Set(accounts)];
    if (unique.length === 1) return this.byAccount.get(unique[0] as bigint) ?? [];
    const merged = new Set<StoredTransaction>();
    for (const account of unique) for (const stored of this.byAccount.get(account) ?? []) merged.add(stored);
    return [...merged].sort((a, b) => compareBig(stamp(a), stamp(b)));
  }
}

/** Types a synthetic child keeps in the payer branch (query.transactions.precedingTransactionTypes). */
const PAYER_CHILD_TYPES = new Set([11, 15]);

/** Whether the payer branch of account.id counts this transaction for its payer (docs/ledger-api.md §5.3). */
export function payerBranchEligible(tx: SimTransaction): boolean {
  return tx.nonce === 0 || tx.parentConsensusTimestamp !== null || PAYER_CHILD_TYPES.has(tx.type);
}

function unionAccounts(tx: SimTransaction): Set<bigint> {
  const accounts = new Set<bigint>();
  if (payerBranchEligible(tx)) accounts.add(tx.payer);
  for (const row of tx.transfers) accounts.add(row.account);
  for (const row of tx.tokenTransfers) accounts.add(row.account);
  return accounts;
}

function stamp(stored: StoredTransaction): bigint {
  return stored.tx.consensusTimestamp;
}

function compareBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function insertSorted(list: StoredTransaction[], stored: StoredTransaction): void {
  const last = list[list.length - 1];
  if (last === undefined || stamp(last) < stamp(stored)) list.push(stored);
  else list.splice(upperBound(list, stamp(stored), stamp), 0, stored);
}

function encodeText(text: string): bigint {
  const parts = text.split('.').map((p) => BigInt(p));
  const [num = 0n, realm = 0n, shard = 0n] = parts.reverse();
  return (shard << 54n) | (realm << 38n) | num;
}

function toAliasHex(alias: Uint8Array | string | null | undefined): string | null {
  if (typeof alias !== 'string') return toHex(alias);
  const bytes = decodeBase32(alias);
  if (bytes === null) throw new Error(`alias "${alias}" is not upper-case RFC 4648 base32`);
  return toHex(bytes);
}
