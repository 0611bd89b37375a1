// The state of one alert key (rule + group values): bigints in memory, decimal strings when stored (JSON).
import type { AlertAccount, AlertRecord } from './alert.js';

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
  repeats: number;
  matchCount: number;
  /** The first MAX_RECORDS records of the episode (before it fires: the newest ones in the window). */
  records: AlertRecord[];
  /** Count / sum windows: match times and (sums only) amounts in tinybars, oldest first, and their sum. */
  times: bigint[];
  amounts: bigint[];
  sum: bigint;
  /** Absence windows: time of the last matching record (or of the first tick, as a baseline). */
  lastSeenNs?: bigint;
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
}

export const MAX_RECORDS = 10;

export function newGroupState(
  key: string,
  ruleId: string,
  group: Readonly<Record<string, string>>,
): GroupState {
  return {
    key,
    ruleId,
    group,
    firing: false,
    repeats: 0,
    matchCount: 0,
    records: [],
    times: [],
    amounts: [],
    sum: 0n,
  };
}

export function storeGroupState(s: GroupState): StoredGroupState {
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
    records: s.records.slice(),
    window: s.times.map((t, i) => [t.toString(), (s.amounts[i] ?? 0n).toString()] as const),
    lastSeenNs: s.lastSeenNs?.toString(),
  };
}

export function restoreGroupState(s: StoredGroupState): GroupState {
  const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v));
  const amounts = s.window.map(([, a]) => BigInt(a));
  return {
    ...s,
    group: { ...s.group },
    records: [...s.records],
    startsNs: big(s.startsNs),
    lastSentNs: big(s.lastSentNs),
    lastSeenNs: big(s.lastSeenNs),
    times: s.window.map(([t]) => BigInt(t)),
    amounts,
    sum: amounts.reduce((a, b) => a + b, 0n),
  };
}
