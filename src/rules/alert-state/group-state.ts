// The state of one alert key (rule + group values): bigints in memory, decimal strings when stored (JSON).
import type { AlertAccount, AlertRecord } from '../alert/alert.js';
import {
  newWindowEntry,
  windowEntryCache,
  type StoredEntry,
  type WindowEntry,
} from './window-entry-cache.js';

export interface GroupState {
  readonly key: string;
  readonly ruleId: string;
  readonly group: Readonly<Record<string, string>>;
  account?: AlertAccount;
  firing: boolean;
  /** Start of the current firing episode, nanoseconds (consensus time, or the clock for absence). */
  startsNs?: bigint;
  /** When the last firing notification (first or repeat) went out, nanoseconds. */
  lastSentNs?: bigint;
  /**
   * The oldest notification sent for a record older than lastSentNs (records out of order), so a later late record
   * is throttled against it too. In memory only: it matters within a poll, where out-of-order records arrive.
   */
  lateSentNs?: bigint;
  repeats: number;
  matchCount: number;
  /** The first MAX_RECORDS records of the episode (before it fires: the newest ones in the window). Replaced on
   * every change, never changed in place: stored states share it. */
  records: readonly AlertRecord[];
  /** Count / sum windows: match times and (sums only) amounts in tinybars, oldest first, and their sum. */
  times: bigint[];
  amounts: bigint[];
  sum: bigint;
  /** Absence windows: time of the last matching record (or of the first tick, as a baseline). */
  lastSeenNs?: bigint;
  /** While firing: what the last firing notification said, so the resolve says what fired (not the values after). */
  fired?: FiredWords;
}

/** The summary and "why" of the last firing notification of an episode. */
export interface FiredWords {
  readonly summary: string;
  readonly why?: string;
}

/** GroupState as JSON stores it (state repository, snapshots). */
export interface StoredGroupState {
  readonly key: string;
  readonly ruleId: string;
  readonly group: Readonly<Record<string, string>>;
  readonly account?: AlertAccount;
  readonly firing: boolean;
  readonly startsNs?: string;
  readonly lastSentNs?: string;
  readonly repeats: number;
  readonly matchCount: number;
  readonly records: readonly AlertRecord[];
  /** [consensus ns, amount] pairs. */
  readonly window: readonly (readonly [string, string])[];
  readonly lastSeenNs?: string;
  /** Absent in states stored before it existed: their resolve renders the summary anew. */
  readonly fired?: FiredWords;
}

/** The stored group states an engine is restored from (the state repository's load()). */
export interface EngineSnapshot {
  readonly version: 1;
  /**
   * Read once, in order, while the engine is built. The state repository streams it row by row: at 10,000
   * accounts × 100 windowed rules it holds hundreds of thousands of groups, more than the heap holds as parsed
   * rows at once (docs/performance.md, section 6).
   */
  readonly groups: Iterable<StoredGroupState>;
}

export interface StateChanges {
  readonly upserts: readonly StoredGroupState[];
  readonly deletes: readonly string[];
}

export const MAX_RECORDS = 10;

/**
 * Every field is set here, optional ones to undefined, so all states share one shape with in-object fields: at
 * 10,000 accounts × 100 rules there are hundreds of thousands of them, and a field added later costs each one a
 * separate property array.
 */
export function newGroupState(
  key: string,
  ruleId: string,
  group: Readonly<Record<string, string>>,
): GroupState {
  return {
    key,
    ruleId,
    group,
    account: undefined,
    firing: false,
    startsNs: undefined,
    lastSentNs: undefined,
    lateSentNs: undefined,
    repeats: 0,
    matchCount: 0,
    records: NONE,
    times: NONE,
    amounts: NONE,
    sum: 0n,
    lastSeenNs: undefined,
    fired: undefined,
  };
}

/** `list` with `item` appended, keeping the newest `max`: a new array of exactly that size (push would reserve 17 slots). */
export function appendNewest<T>(list: readonly T[], item: T, max: number): T[] {
  const keep = Math.max(0, Math.min(list.length, max - 1));
  // concat allocates exactly; slice + push or [...list, item] reserve spare slots (measured: twice the memory).
  return (keep === list.length ? list : list.slice(list.length - keep)).concat([item]);
}

/**
 * The records and amounts of a state that has none: one frozen array shared by all of them (a write to it throws,
 * so code that must replace it cannot silently push instead).
 */
export const NONE: never[] = Object.freeze([]) as unknown as never[];

/** `entry` builds the window's stored entries (the transitions pass a windowEntryCache: stored states repeat them). */
export function storeGroupState(s: GroupState, entry: WindowEntry = newWindowEntry): StoredGroupState {
  return {
    key: s.key,
    ruleId: s.ruleId,
    group: s.group,
    account: s.account,
    firing: s.firing,
    startsNs: s.startsNs?.toString(),
    lastSentNs: s.lastSentNs?.toString(),
    repeats: s.repeats,
    matchCount: s.matchCount,
    // Shared, not copied: a state's records array is never changed in place (every change assigns a new one, see
    // appendNewest and NONE), so the stored state keeps seeing what it was stored with.
    records: s.records,
    window: storedWindow(s, entry),
    lastSeenNs: s.lastSeenNs?.toString(),
    ...(s.fired ? { fired: s.fired } : {}),
  };
}

/** storeGroupState with its own bounded cache of window entries (one per engine). */
export function groupStateStore(): (s: GroupState) => StoredGroupState {
  const entry = windowEntryCache();
  return (s) => storeGroupState(s, entry);
}

function storedWindow(s: GroupState, entry: WindowEntry): StoredEntry[] {
  const { times, amounts } = s;
  const out = new Array<StoredEntry>(times.length);
  // Count windows keep no amounts: undefined, stored as "0".
  for (let i = 0; i < times.length; i++) out[i] = entry(times[i] as bigint, amounts[i]);
  return out;
}

export function restoreGroupState(s: StoredGroupState): GroupState {
  const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v));
  const amounts = s.window.map(([, a]) => BigInt(a));
  const state = newGroupState(s.key, s.ruleId, { ...s.group });
  state.account = s.account;
  state.firing = s.firing;
  state.startsNs = big(s.startsNs);
  state.lastSentNs = big(s.lastSentNs);
  state.repeats = s.repeats;
  state.matchCount = s.matchCount;
  state.records = [...s.records];
  state.times = s.window.map(([t]) => BigInt(t));
  state.amounts = amounts;
  state.sum = amounts.reduce((a, b) => a + b, 0n);
  state.lastSeenNs = big(s.lastSeenNs);
  state.fired = firedWords(s.fired);
  return state;
}

/** Stored words as they are, if they are words (a hand-edited or older row may hold anything). */
function firedWords(value: unknown): FiredWords | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { summary, why } = value as { summary?: unknown; why?: unknown };
  if (typeof summary !== 'string') return undefined;
  return typeof why === 'string' ? { summary, why } : { summary };
}
