// The global tail: every transaction of the ledger, matched locally against the watch set by the service's
// account.id union semantics; staking rewards come from each transaction's staking_reward_transfers. Each
// (account, source) keeps its own dedup window, shared with per-account polling, so the strategy can change
// between polls without repeats or gaps.
//
// Two modes (docs/tailing.md, "Race safety"):
// - immediate: every poll reads the head, `gt:<read>`, and hands new rows over at once; at most once per
//   sweep_interval a sweep reads `gt:<safe>&lte:<H − overlap>` (H = the head observed before the sweep),
//   hands over what the head reads missed (rows that became visible late) and moves `safe` there. Each row is
//   read at most twice.
// - settled: every poll reads only `gt:<safe>&lte:<H − overlap>` (H from the round's head probe) and moves
//   `safe` there. Each row is read once, and handed over `overlap` later than in immediate mode.
import { rewardAccountId } from '@ledger-sentinel/ledger-model/entity-id';
import type { Transaction } from '@ledger-sentinel/ledger-model/schema';
import {
  formatTimestamp,
  parseTimestamp,
  timestampFromMillis,
} from '@ledger-sentinel/ledger-model/timestamp';
import type { PollResult } from './account-tailer.js';
import { newestTrusted } from './future-bound.js';
import { matchAccounts, passesPushdown } from './match-account.js';
import { probeHead } from './probe-head.js';
import { ProvenRanges, WalkProof } from './proven-ranges.js';
import { quarantinePage } from './quarantine-page.js';
import { readAhead } from './read-ahead.js';
import { type AccountStream, GLOBAL_STREAM } from './streams.js';
import {
  type Delivery,
  HEAD_PRIORITY,
  REPLAYABLE,
  type TailContext,
  handOver,
  settledBound,
} from './tail-context.js';
import type { Cursor } from './tail-state.js';
import { type WalkBound, createWalkBound, reportTruncated } from './walk-bound.js';

/** The covered streams by account id, built once per watch list. */
export interface GlobalIndex {
  readonly ids: ReadonlySet<string>;
  readonly transactions: ReadonlyMap<string, AccountStream>;
  readonly rewards: ReadonlyMap<string, AccountStream>;
}

export function globalIndex(streams: readonly AccountStream[]): GlobalIndex {
  const transactions = new Map<string, AccountStream>();
  const rewards = new Map<string, AccountStream>();
  for (const s of streams) {
    if (!s.coveredByGlobal) continue;
    (s.source === 'transactions' ? transactions : rewards).set(s.account.id, s);
  }
  return { ids: new Set([...transactions.keys(), ...rewards.keys()]), transactions, rewards };
}

export type GlobalMode = 'immediate' | 'settled';

export interface GlobalTailOptions {
  readonly mode: GlobalMode;
  /** Immediate mode: least time between the starts of two sweeps, ms. */
  readonly sweepIntervalMs: number;
  /** Milliseconds since the epoch (the tailer's clock): only schedules sweeps. */
  readonly clock: () => number;
}

export interface GlobalTail {
  /** One poll of the global stream (its cursor must exist: startGlobal). */
  poll(signal: AbortSignal): Promise<PollResult>;
}

export function createGlobalTail(
  ctx: TailContext,
  index: GlobalIndex,
  options: GlobalTailOptions,
): GlobalTail {
  // In memory on purpose: after a restart the first poll sweeps, which is always safe.
  let lastSweepMs: number | undefined;
  // Head-read ranges that were complete when read (proven-ranges.ts): the sweep skips them.
  const proven = new ProvenRanges();
  // False after a start, a failed poll or a head read cut short: the head read may face a backlog, and a
  // head probe first (one request) lets it prove the backlog complete, so the sweep need not read it again.
  let caughtUp = false;
  /** A backlog worth a probe: not caught up, and `read` far behind the wall clock (lag alone stays below). */
  const behind = () =>
    !caughtUp &&
    timestampFromMillis(options.clock()) - globalCursor(ctx).read > BACKLOG_PROBE_FACTOR * ctx.overlapNs;
  return {
    async poll(signal) {
      // One bound for the whole poll: the head read and the sweep share it.
      const bound = createWalkBound(ctx.walk);
      const result = await pollOnce(signal, bound);
      if (result.truncated) reportTruncated(ctx, GLOBAL_STREAM, result.truncated, bound.pages);
      return result;
    },
  };

  async function pollOnce(signal: AbortSignal, bound: WalkBound): Promise<PollResult> {
    if (options.mode === 'settled') {
      const read = await sweep(ctx, index, proven, signal, bound);
      ctx.metrics?.globalPages.inc({ read: 'sweep' }, read?.pages ?? 0);
      return read ?? NOTHING;
    }
    const probed = behind() ? await probeHead(ctx, signal, timestampFromMillis(options.clock())) : 0;
    caughtUp = false;
    const read = await readHead(ctx, index, proven, signal, bound);
    caughtUp = !read.truncated;
    const head = { ...read, pages: read.pages + probed };
    ctx.metrics?.globalPages.inc({ read: 'head' }, head.pages);
    const now = options.clock();
    if (head.truncated) return head;
    if (lastSweepMs !== undefined && now - lastSweepMs < options.sweepIntervalMs) return head;
    const swept = await sweep(ctx, index, proven, signal, bound);
    if (!swept) return head;
    ctx.metrics?.globalPages.inc({ read: 'sweep' }, swept.pages);
    // What the sweep hands over in this mode, no head read had: rows that showed up late (or, after a
    // restart, rows the head read had not reached). The figure that says whether the sweep earns its pages.
    ctx.metrics?.sweepLateRecords.inc(swept.delivered);
    // A sweep cut short resumes on the next poll instead of waiting for sweep_interval.
    if (!swept.truncated) lastSweepMs = now;
    return {
      pages: head.pages + swept.pages,
      delivered: head.delivered + swept.delivered,
      dropped: head.dropped + swept.dropped,
      ...(swept.truncated ? { truncated: swept.truncated } : {}),
    };
  }
}

const NOTHING: PollResult = { pages: 0, delivered: 0, dropped: 0 };

/**
 * `read` this many overlaps behind now makes a backlog (the service's usual lag is a few seconds, 20 s at
 * worst, docs/ledger-api.md §16): below it, what a probe could save the sweep is less than the probe itself.
 */
const BACKLOG_PROBE_FACTOR = 6n;

function globalCursor(ctx: TailContext): Cursor {
  const cursor = ctx.state.cursor(GLOBAL_STREAM);
  if (!cursor) throw new Error('tail: the global stream has no cursor; call startGlobal first');
  return cursor;
}

/**
 * Immediate mode's head read: every row after `read` (the newest row read so far), handed over at once.
 * It moves only `read`: rows at or below it that were still hidden are the sweep's.
 */
async function readHead(
  ctx: TailContext,
  index: GlobalIndex,
  proven: ProvenRanges,
  signal: AbortSignal,
  bound: WalkBound,
): Promise<RangeRead> {
  const cursor = globalCursor(ctx);
  const r = await readRange(ctx, index, { after: cursor.read }, signal, bound);
  proven.add(cursor.read, r.provenTo);
  // Every visible row after `read` was read: their count over their span is the ledger's rate.
  if (r.newest > cursor.read && !r.truncated) ctx.head.sampleRate(r.rows + 1, cursor.read, r.newest);
  ctx.state.transaction(
    () => ctx.state.advance(GLOBAL_STREAM, { safe: cursor.safe, read: r.newest }),
    REPLAYABLE,
  );
  return r;
}

/**
 * The bounded read both modes share: `gt:<safe>&lte:<bound>` with bound = H − overlap, H the newest row seen
 * before it starts. Every row at or below the bound was visible all along (the skew assumption), so afterwards
 * everything up to it has been handed over: `safe` moves there and the dedup window is pruned. Undefined when
 * there is nothing to read (no head yet, or the bound has not passed `safe`).
 */
async function sweep(
  ctx: TailContext,
  index: GlobalIndex,
  proven: ProvenRanges,
  signal: AbortSignal,
  walk: WalkBound,
): Promise<RangeRead | undefined> {
  const cursor = globalCursor(ctx);
  const bound = settledBound(ctx, ctx.head.head, cursor.safe);
  if (bound <= cursor.safe) return undefined;
  const gaps = proven.gaps(cursor.safe, bound);
  const total = { pages: 0, delivered: 0, dropped: 0, rows: 0 };
  let to = bound;
  let truncated: RangeRead['truncated'];
  for (const gap of gaps) {
    const r = await readRange(ctx, index, gap, signal, walk);
    total.pages += r.pages;
    total.delivered += r.delivered;
    total.dropped += r.dropped;
    total.rows += r.rows;
    if (!r.truncated) continue;
    // Cut short, the sweep read (ascending) every row up to the newest one it handed over: `safe` goes there.
    to = r.newest < gap.upTo ? r.newest : gap.upTo;
    truncated = r.truncated;
    break;
  }
  // Only a read of the whole range counts every row of it.
  if (!truncated && gaps.length === 1 && gaps[0]?.after === cursor.safe && gaps[0].upTo === bound)
    ctx.head.sampleRate(total.rows + 1, cursor.safe, bound);
  ctx.state.transaction(() => {
    const moved = ctx.state.advance(GLOBAL_STREAM, { safe: to, read: to });
    ctx.state.pruneCovered(moved.safe);
  }, REPLAYABLE);
  proven.prune(to);
  return { ...total, newest: to, provenTo: to, ...(truncated ? { truncated } : {}) };
}

interface RangeRead extends PollResult {
  /** Rows read (all of them, matched or not). */
  readonly rows: number;
  /** The newest row read, or `after` when none. */
  readonly newest: bigint;
  /** `(after, provenTo]` was complete when read (see provenThrough); `after` when nothing is proven. */
  readonly provenTo: bigint;
}

/**
 * The pages of `gt:after[&lte:upTo]` up to the poll's bound, each page's fresh records handed over in one
 * transaction.
 */
async function readRange(
  ctx: TailContext,
  index: GlobalIndex,
  range: { readonly after: bigint; readonly upTo?: bigint },
  signal: AbortSignal,
  bound: WalkBound,
): Promise<RangeRead> {
  const query = {
    after: formatTimestamp(range.after),
    ...(range.upTo === undefined ? {} : { upTo: formatTimestamp(range.upTo) }),
    order: 'asc',
    limit: ctx.pageLimit,
  } as const;
  // Page N+1 is requested while page N is handed over. The proof below still holds: that request starts after
  // page N's response arrived, so every row of page N was visible before it, as in a walk without read-ahead.
  const pages = readAhead(
    (walkSignal) => ctx.source.transactions(query, { signal: walkSignal, priority: HEAD_PRIORITY }),
    signal,
    () => bound.mayReadOn(),
  );
  const result: { -readonly [K in keyof RangeRead]: RangeRead[K] } = {
    pages: 0,
    delivered: 0,
    dropped: 0,
    rows: 0,
    newest: range.after,
    provenTo: range.after,
  };
  const proof = new WalkProof(range.after, ctx.head.head, ctx.overlapNs);
  for await (const page of pages) {
    result.pages += 1;
    quarantinePage(ctx, page, { stream: GLOBAL_STREAM, source: 'transactions', watched: index.ids });
    const fresh: Delivery[] = [];
    const future = ctx.future.bound();
    for (const tx of page.records) {
      const ts = parseTimestamp(tx.consensus_timestamp);
      // Beyond now + max_clock_skew: matched and handed over, but `read` (the next head read's `gt:`) stays.
      ctx.head.observe(ts);
      result.rows += 1;
      result.newest = newestTrusted(result.newest, ts, future);
      for (const d of matches(tx, ts, index)) {
        if (ts <= (ctx.state.cursor(d.stream)?.safe ?? -1n) || ctx.state.isSeen(d.stream, ts)) {
          result.dropped += 1;
          ctx.metrics?.dedupDrops.inc({ source: d.item.source });
        } else fresh.push(d);
      }
    }
    await handOver(ctx, fresh, signal);
    result.delivered += fresh.length;
    proof.page(result.newest);
    const truncated = bound.pageHandled();
    if (truncated) return { ...result, provenTo: proof.provenTo, truncated };
  }
  proof.complete(range.upTo);
  return { ...result, provenTo: proof.provenTo };
}

function matches(tx: Transaction, ts: bigint, index: GlobalIndex): Delivery[] {
  const out: Delivery[] = [];
  for (const id of matchAccounts(tx, index.ids)) {
    const stream = index.transactions.get(id);
    if (stream && passesPushdown(tx, stream.pushdown))
      out.push({
        stream: stream.key,
        ts,
        item: { source: 'transactions', record: tx, account: stream.account },
      });
  }
  const seen = new Set<string>();
  for (const reward of tx.staking_reward_transfers) {
    const id = rewardAccountId(reward.account);
    const stream = index.rewards.get(id);
    if (!stream || seen.has(id)) continue;
    seen.add(id);
    const record = { account_id: id, amount: reward.amount, timestamp: tx.consensus_timestamp };
    out.push({ stream: stream.key, ts, item: { source: 'rewards', record, account: stream.account } });
  }
  return out;
}
