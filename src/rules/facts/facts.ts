// What conditions see of one record for one watched account. Derived values (net change, decoded memo, token
// totals) are computed on first use and cached, so fifty rules reading `debit` sum the transfers once.
import type { ContractAction, StakingReward, Transaction } from '@ledger-sentinel/ledger-model/schema';
import type { WatchedAccount } from '../../accounts/watched-account.js';
import { parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';
import type { AlertRecord } from '../alert/alert.js';
import type { UnitFacts } from '../../tokens/token-amount-text.js';

export type Source = 'transactions' | 'rewards';
export const SOURCES: readonly Source[] = ['transactions', 'rewards'];

/** Memos are capped before any `contains`/`regex` runs, so a hostile memo cannot make a regex slow. */
export const MEMO_EVAL_LIMIT = 1024;

/**
 * Accounts that collect fees and rewards: crediting them is not "HBAR left for a counterparty". An attacker
 * gains nothing from HBAR sent there, so allowlist conditions ignore them (plus the record's own `node`).
 * 0.0.802 is the fee-collection account: the network collects fees there and pays them out to the others
 * later, and records of the current line credit it with the fee. Without it every fee paid would read as HBAR
 * sent to a stranger.
 */
export const FEE_ACCOUNTS: ReadonlySet<string> = new Set(['0.0.98', '0.0.800', '0.0.801', '0.0.802']);

export interface RecordEvent {
  readonly source: Source;
  readonly record: Transaction | StakingReward;
  readonly account: WatchedAccount;
  /**
   * Set by the tailer for a record dated beyond now + tail.max_clock_skew: the time rule state (throttle,
   * windows, absence "last seen") takes instead of the record's, so a record dated 2100 cannot silence its
   * rule until 2100. Absent: the record's own time.
   */
  readonly stateTimeNs?: bigint;
  /** Contract actions of the transaction; undefined = not fetched (yet). */
  readonly traces?: readonly ContractAction[];
  /**
   * The facts (decimals, symbol) of the tokens the daemon has read (src/tokens/token-facts.ts), set by the pipeline
   * after it made sure the record's tokens were read; undefined = none known (amounts then stay in raw units).
   */
  readonly tokenFacts?: (tokenId: string) => UnitFacts | undefined;
}

/**
 * Values derived from the record alone (decoded memo, payer, consensus time), shared by the Facts of every watched
 * account the record involves: the engine keeps the one of the record it saw last.
 */
export class RecordFacts {
  memo: string | undefined;
  memoHead: string | undefined;
  memoHeadLower: string | undefined;
  payer: string | undefined;
  payerDone = false;
  timeNs: bigint | undefined;

  constructor(
    readonly record: object,
    readonly memoDecoder: MemoDecoder = decodeMemo,
  ) {}
}

export class Facts {
  readonly tx: Transaction | undefined;
  readonly reward: StakingReward | undefined;
  /** Record-level cache; shared between accounts only when it was built for this very record object. */
  private readonly shared: RecordFacts;
  private netCache: bigint | undefined;
  private counterpartyCache: readonly string[] | undefined;
  /**
   * Template view and alert digest of the record (alert-content/view.ts), built once for all the rules that alert
   * on it.
   */
  view: Record<string, unknown> | undefined;
  digest: AlertRecord | undefined;

  constructor(
    readonly event: RecordEvent,
    shared?: RecordFacts,
  ) {
    this.tx = event.source === 'transactions' ? (event.record as Transaction) : undefined;
    this.reward = event.source === 'rewards' ? (event.record as StakingReward) : undefined;
    this.shared =
      shared !== undefined && shared.record === event.record ? shared : new RecordFacts(event.record);
  }

  get account(): WatchedAccount {
    return this.event.account;
  }

  get traces(): readonly ContractAction[] | undefined {
    return this.event.traces;
  }

  /** Net HBAR change of the watched account in tinybars, fees included (the reward amount for rewards). */
  net(): bigint {
    if (this.netCache !== undefined) return this.netCache;
    let sum = 0n;
    if (this.reward) sum = this.reward.amount;
    else if (this.tx) {
      const id = this.event.account.id;
      const transfers = this.tx.transfers;
      for (let i = 0; i < transfers.length; i++) {
        const t = transfers[i] as Transaction['transfers'][number];
        if (t.account === id) sum += t.amount;
      }
    }
    this.netCache = sum;
    return sum;
  }

  tokenNet(tokenId: string): bigint {
    let sum = 0n;
    for (const t of this.tx?.token_transfers ?? [])
      if (t.token_id === tokenId && t.account === this.account.id) sum += t.amount;
    return sum;
  }

  /** The time rule state is kept in: the consensus time, unless the tailer stood another in (RecordEvent). */
  stateTimeNs(): bigint {
    return this.event.stateTimeNs ?? this.timeNs();
  }

  /** Consensus time of the record (the payout time of a reward), nanoseconds. */
  timeNs(): bigint {
    this.shared.timeNs ??= parseTimestamp(this.tx?.consensus_timestamp ?? this.reward?.timestamp ?? '0');
    return this.shared.timeNs;
  }

  /** `0.0.1234` of `0.0.1234-1565779444-711927000`. */
  payer(): string | undefined {
    const s = this.shared;
    if (!s.payerDone) {
      const id = this.tx?.transaction_id;
      s.payer = id === undefined ? undefined : id.slice(0, id.indexOf('-'));
      s.payerDone = true;
    }
    return s.payer;
  }

  /** The memo decoded from base64 as UTF-8 (invalid bytes replaced); '' when there is none. */
  memo(): string {
    this.shared.memo ??= this.shared.memoDecoder(this.tx?.memo_base64);
    return this.shared.memo;
  }

  /** The part of the memo that `memo` conditions examine: its first MEMO_EVAL_LIMIT characters. */
  memoHead(): string {
    this.shared.memoHead ??= this.memo().slice(0, MEMO_EVAL_LIMIT);
    return this.shared.memoHead;
  }

  /** memoHead() in lower case (for `ignore_case: true`). */
  memoHeadLower(): string {
    this.shared.memoHeadLower ??= this.memoHead().toLowerCase();
    return this.shared.memoHeadLower;
  }

  /** Accounts credited HBAR by this transaction, except the watched account and the fee collectors. */
  counterparties(): readonly string[] {
    if (this.counterpartyCache !== undefined) return this.counterpartyCache;
    const node = this.tx?.node;
    const id = this.account.id;
    const out: string[] = [];
    for (const t of this.tx?.transfers ?? [])
      if (t.amount > 0n && t.account !== id && t.account !== node && !FEE_ACCOUNTS.has(t.account))
        out.push(t.account);
    this.counterpartyCache = out;
    return out;
  }
}

export function decodeMemo(base64: string | null | undefined): string {
  if (!base64) return '';
  return decodeAsciiBase64(base64) ?? Buffer.from(base64, 'base64').toString('utf8');
}

/**
 * decodeMemo with a small bounded cache of short memos, which repeat (payroll, exchange deposit tags). One per
 * engine: `createEngine` keeps it for the records it evaluates.
 */
export function cachedMemoDecoder(size = 1024, maxChars = 144): MemoDecoder {
  const cache = new Map<string, string>();
  return (base64) => {
    if (!base64) return '';
    if (base64.length > maxChars) return decodeMemo(base64);
    let text = cache.get(base64);
    if (text === undefined) {
      if (cache.size >= size) cache.clear();
      cache.set(base64, (text = decodeMemo(base64)));
    }
    return text;
  };
}

export type MemoDecoder = (base64: string | null | undefined) => string;

const NON_ASCII = /[\u0080-\uffff]/;

/**
 * atob() is several times faster than a Buffer for short texts. Whatever it accepts (the base64 alphabet, ASCII
 * whitespace, at most two trailing '='), Buffer decodes to the same bytes, and when they are all ASCII they are
 * the UTF-8 text too. Anything else: undefined, for the Buffer.
 */
function decodeAsciiBase64(text: string): string | undefined {
  let bytes: string;
  try {
    bytes = atob(text);
  } catch {
    return undefined;
  }
  return NON_ASCII.test(bytes) ? undefined : bytes;
}
