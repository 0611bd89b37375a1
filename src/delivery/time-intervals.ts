// Alertmanager's time interval semantics over `time_intervals:` (notifiers/time-intervals-config.ts): an instant is
// in a spec when it matches every field the spec sets (times of day with an exclusive end, weekdays, days of the
// month with negative days counted from the month's end and clamped to it, months, years), read in the spec's
// `location`; an interval contains the instant when any of its specs does. Time zones come from Intl (the IANA
// database Node ships), so DST is handled by the same tables the platform uses: no library needed.
import type { Range, TimeInterval, TimeIntervalSpec } from '../notifiers/time-intervals-config.js';

interface Local {
  readonly year: number;
  readonly month: number; // 1-12
  readonly day: number;
  readonly weekday: number; // 0 = Sunday
  readonly minute: number; // minutes since local midnight
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAY: Readonly<Record<string, number>> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      ...{
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        weekday: 'short',
        hour: 'numeric',
        minute: 'numeric',
      },
    });
    // The zones come from the config: a handful. The bound only guards against a misuse.
    if (formatters.size > 1000) formatters.clear();
    formatters.set(zone, f);
  }
  return f;
}

export function localTime(t: number, zone: string): Local {
  const parts: Record<string, string> = {};
  for (const p of formatter(zone).formatToParts(t)) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    weekday: WEEKDAY[parts.weekday ?? ''] ?? 0,
    minute: (Number(parts.hour) % 24) * 60 + Number(parts.minute),
  };
}

const inAny = (ranges: readonly Range[] | undefined, value: number) =>
  !ranges || ranges.some((r) => value >= r.start && value <= r.end);

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function dayMatches(ranges: readonly Range[], local: Local): boolean {
  const days = daysInMonth(local.year, local.month);
  const clamp = (n: number) => Math.min(Math.max(n, -days), days);
  return ranges.some((r) => {
    const start = r.start < 0 ? days + r.start + 1 : r.start;
    const end = r.end < 0 ? days + r.end + 1 : r.end;
    if (start > days) return false; // e.g. "31" in a 30-day month
    return local.day >= clamp(start) && local.day <= clamp(end);
  });
}

export function specContains(spec: TimeIntervalSpec, t: number): boolean {
  const local = localTime(t, spec.location);
  if (spec.times && !spec.times.some((r) => local.minute >= r.start && local.minute < r.end)) return false;
  if (spec.days_of_month && !dayMatches(spec.days_of_month, local)) return false;
  return (
    inAny(spec.weekdays, local.weekday) && inAny(spec.months, local.month) && inAny(spec.years, local.year)
  );
}

export function intervalContains(interval: TimeInterval, t: number): boolean {
  return interval.time_intervals.some((spec) => specContains(spec, t));
}

/**
 * The first instant after `t` at which `predicate` changes its value, looking at most `maxDays` ahead; undefined
 * when it does not change within them. Values can only change at a local midnight or at a `times` boundary of one
 * of the specs (in its own zone), so only those instants are tried.
 */
export function nextChange(
  specs: readonly TimeIntervalSpec[],
  predicate: (t: number) => boolean,
  t: number,
  maxDays = 400,
): number | undefined {
  const now = predicate(t);
  let same = t;
  for (let day = 0; day <= maxDays; day++) {
    const candidates = specs
      .flatMap((spec) => boundariesOnDay(spec, t, day))
      // A boundary in a DST gap or overlap may be converted an hour off: try its neighbours too.
      .flatMap((c) => [c - HOUR, c, c + HOUR])
      .filter((c) => c > same)
      .sort((a, b) => a - b);
    for (const c of candidates) {
      if (predicate(c) === now) same = c;
      else return firstFlip(predicate, now, same, c);
    }
  }
  return undefined;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The earliest minute in (same, flipped] where the predicate no longer has its value at `same`. */
function firstFlip(predicate: (t: number) => boolean, value: boolean, same: number, flipped: number): number {
  let lo = same;
  let hi = flipped;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (mid <= lo) break;
    if (predicate(mid) === value) lo = mid;
    else hi = mid;
  }
  // Values change on whole minutes: the flip is at the minute boundary at or before hi.
  const boundary = Math.floor(hi / MINUTE) * MINUTE;
  return boundary > lo && predicate(boundary) !== value ? boundary : hi;
}

function boundariesOnDay(spec: TimeIntervalSpec, t: number, day: number): number[] {
  const base = localTime(t, spec.location);
  const minutes = new Set([0, ...(spec.times ?? []).flatMap((r) => [r.start, r.end % 1440])]);
  return [...minutes].map((m) =>
    utcOf(Date.UTC(base.year, base.month - 1, base.day + day, 0, m), spec.location),
  );
}

/** The UTC instant of a local wall-clock time (ms as if it were UTC) in `zone`; in a DST gap, an hour off. */
function utcOf(localMs: number, zone: string): number {
  const offset = (u: number) => {
    const l = localTime(u, zone);
    return Date.UTC(l.year, l.month - 1, l.day, 0, l.minute) - Math.floor(u / 60_000) * 60_000;
  };
  const guess = localMs - offset(localMs);
  return localMs - offset(guess);
}
