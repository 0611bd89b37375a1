// Balances and tokens of the simulated ledger, as the service keeps them: the current HBAR balance of every
// account (entity.balance, balance_timestamp), the current balance of every (token, account) association
// (token_account), the balance snapshots (account_balance, token_balance) that timestamp queries read, and the
// token rows (token + entity) `GET /api/v1/tokens/{id}` serves. The living ledger applies every record's transfers
// here (`applyRecord`); spec setups load rows directly.
import { lowerBound, upperBound } from './sorted.js';
import type { SimToken } from './token-json.js';

export type { SimToken } from './token-json.js';

export interface SimHbarBalance {
  /** Tinybars; null when the entity row has no balance (the service then answers null). */
  balance: bigint | null;
  /** Consensus ns of the record that last changed it; null when unknown. */
  timestamp: bigint | null;
}

export interface SimTokenAccount {
  readonly tokenId: bigint;
  readonly accountId: bigint;
  balance: bigint;
  balanceTimestamp: bigint;
  associated: boolean;
}

/** One account_balance snapshot row, with the token_balance rows taken at the same time. */
export interface SimBalanceSnapshot {
  readonly timestamp: bigint;
  readonly accountId: bigint;
  readonly balance: bigint;
  readonly tokens: ReadonlyArray<{ readonly tokenId: bigint; readonly balance: bigint }>;
}

/** The transfer columns of one record that change balances. */
export interface BalanceRecord {
  readonly consensusTimestamp: bigint;
  /** 22 = SUCCESS; a failed record moves only its (HBAR) fee legs. */
  readonly result: number;
  readonly transfers: ReadonlyArray<{ readonly account: bigint; readonly amount: bigint }>;
  readonly tokenTransfers: ReadonlyArray<{
    readonly tokenId: bigint;
    readonly account: bigint;
    readonly amount: bigint;
  }>;
  /** NFT movements: a null sender is a mint, a null receiver a burn or wipe. */
  readonly nftTransfers?: ReadonlyArray<{
    readonly tokenId: bigint;
    readonly sender: bigint | null;
    readonly receiver: bigint | null;
  }>;
}

const SUCCESS = 22;

export class BalanceBook {
  private readonly hbar = new Map<bigint, SimHbarBalance>();
  private readonly publicKeys = new Map<bigint, string>();
  private readonly tokens = new Map<bigint, SimToken>();
  /** token id → account id → association. */
  private readonly tokenAccounts = new Map<bigint, Map<bigint, SimTokenAccount>>();
  /** Snapshots sorted by timestamp ascending. */
  private snapshots: SimBalanceSnapshot[] = [];
  private lastSnapshot: bigint | null = null;

  setHbar(accountId: bigint, balance: bigint | null, timestamp: bigint | null): void {
    this.hbar.set(accountId, { balance, timestamp });
  }

  hbarOf(accountId: bigint): SimHbarBalance | undefined {
    return this.hbar.get(accountId);
  }

  /** Every account with an HBAR row, ids ascending. */
  hbarAccounts(): bigint[] {
    return [...this.hbar.keys()].sort(compareBig);
  }

  /** The account's public key (lower-case hex of the raw ED25519/ECDSA key), for `account.publickey`. */
  setPublicKey(accountId: bigint, hex: string | null): void {
    if (hex === null) this.publicKeys.delete(accountId);
    else this.publicKeys.set(accountId, hex.toLowerCase());
  }

  publicKeyOf(accountId: bigint): string | undefined {
    return this.publicKeys.get(accountId);
  }

  putToken(token: SimToken): void {
    this.tokens.set(token.tokenId, token);
  }

  getToken(tokenId: bigint): SimToken | undefined {
    return this.tokens.get(tokenId);
  }

  tokenIds(): bigint[] {
    return [...this.tokens.keys()].sort(compareBig);
  }

  setTokenAccount(row: SimTokenAccount): void {
    const byAccount = this.tokenAccounts.get(row.tokenId) ?? new Map<bigint, SimTokenAccount>();
    byAccount.set(row.accountId, row);
    this.tokenAccounts.set(row.tokenId, byAccount);
  }

  /** Associations of one token, account ids ascending. */
  holdersOf(tokenId: bigint): SimTokenAccount[] {
    return [...(this.tokenAccounts.get(tokenId)?.values() ?? [])].sort((a, b) =>
      compareBig(a.accountId, b.accountId),
    );
  }

  /** Associations of one account, token ids ascending. */
  tokensOf(accountId: bigint): SimTokenAccount[] {
    const out: SimTokenAccount[] = [];
    for (const byAccount of this.tokenAccounts.values()) {
      const row = byAccount.get(accountId);
      if (row) out.push(row);
    }
    return out.sort((a, b) => compareBig(a.tokenId, b.tokenId));
  }

  addSnapshot(snapshot: SimBalanceSnapshot): void {
    this.snapshots.splice(upperBound(this.snapshots, snapshot.timestamp, snapTime), 0, snapshot);
  }

  /** Snapshot rows with lower <= timestamp <= upper, ascending by timestamp. */
  snapshotsIn(lower: bigint, upper: bigint): SimBalanceSnapshot[] {
    const from = lowerBound(this.snapshots, lower, snapTime);
    const to = upperBound(this.snapshots, upper, snapTime);
    return this.snapshots.slice(from, to);
  }

  /** Takes a snapshot at `timestamp` when `intervalNs` has passed since the last one. */
  snapshotIfDue(timestamp: bigint, intervalNs: bigint): void {
    if (this.lastSnapshot === null || timestamp - this.lastSnapshot >= intervalNs)
      this.takeSnapshot(timestamp);
  }

  /** Drops snapshots older than `ns`, always keeping the newest one (a timestamp query still finds it). */
  pruneSnapshotsBefore(ns: bigint): void {
    const newest = this.snapshots[this.snapshots.length - 1];
    if (newest === undefined) return;
    const cut = lowerBound(this.snapshots, ns < newest.timestamp ? ns : newest.timestamp, snapTime);
    if (cut > 0) this.snapshots = this.snapshots.slice(cut);
  }

  /** Takes a snapshot of every account's current balances at `timestamp` (the service's periodic balance file). */
  takeSnapshot(timestamp: bigint): void {
    this.lastSnapshot = timestamp;
    for (const accountId of this.hbarAccounts()) {
      const tokens = this.tokensOf(accountId)
        .filter((row) => row.associated)
        .map((row) => ({ tokenId: row.tokenId, balance: row.balance }));
      const balance = this.hbar.get(accountId)?.balance ?? 0n;
      this.addSnapshot({ timestamp, accountId, balance, tokens });
    }
  }

  /** Applies a record's transfers: HBAR always (fees), tokens and supply only when it succeeded. */
  applyRecord(record: BalanceRecord): void {
    const ts = record.consensusTimestamp;
    for (const { account, amount } of record.transfers) {
      const row = this.hbar.get(account);
      if (row) {
        row.balance = (row.balance ?? 0n) + amount;
        row.timestamp = ts;
      } else this.hbar.set(account, { balance: amount, timestamp: ts });
    }
    if (record.result !== SUCCESS) return;
    for (const { tokenId, account, amount } of record.tokenTransfers) {
      this.moveToken(tokenId, account, amount, ts);
      const token = this.tokens.get(tokenId);
      if (token) this.tokens.set(tokenId, { ...token, totalSupply: token.totalSupply + amount });
    }
    for (const { tokenId, sender, receiver } of record.nftTransfers ?? []) {
      if (sender !== null) this.moveToken(tokenId, sender, -1n, ts);
      if (receiver !== null) this.moveToken(tokenId, receiver, 1n, ts);
      const delta = (sender === null ? 1n : 0n) - (receiver === null ? 1n : 0n);
      const token = this.tokens.get(tokenId);
      if (token && delta !== 0n)
        this.tokens.set(tokenId, { ...token, totalSupply: token.totalSupply + delta });
    }
  }

  private moveToken(tokenId: bigint, accountId: bigint, amount: bigint, ts: bigint): void {
    const byAccount = this.tokenAccounts.get(tokenId);
    const row = byAccount?.get(accountId);
    if (row) {
      row.balance += amount;
      row.balanceTimestamp = ts;
      row.associated = true;
      return;
    }
    this.setTokenAccount({ tokenId, accountId, balance: amount, balanceTimestamp: ts, associated: true });
  }
}

function snapTime(snapshot: SimBalanceSnapshot): bigint {
  return snapshot.timestamp;
}

export function compareBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
