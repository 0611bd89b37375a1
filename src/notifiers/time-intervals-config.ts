// `time_intervals:` — Alertmanager's recurring time intervals (weekdays, times of day, days of the month, months,
// years, a time zone), declared once and named by routes in `mute_time_intervals` / `active_time_intervals`.
// Parsed here into inclusive number ranges; delivery/time-intervals.ts matches instants against them.
import { z } from 'zod';

/** An inclusive range; times of day are minutes since local midnight with an exclusive end (start ≤ t < end). */
export interface Range {
  readonly start: number;
  readonly end: number;
}

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const TIME = /^(\d{2}):(\d{2})$/;

function minutes(text: string): number | undefined {
  const m = TIME.exec(text);
  if (!m) return undefined;
  const [h, min] = [Number(m[1]), Number(m[2])];
  if (h === 24 && min === 0) return 1440;
  return h < 24 && min < 60 ? h * 60 + min : undefined;
}

const TimeOfDay = z.string().transform((text, ctx) => {
  const m = minutes(text);
  if (m === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a time of day "HH:MM" from "00:00" to "24:00" (e.g. "09:00"), got "${text.slice(0, 40)}"`,
    });
    return z.NEVER;
  }
  return m;
});

const Times = z
  .object({ start_time: TimeOfDay, end_time: TimeOfDay })
  .strict()
  .refine((t) => t.start_time < t.end_time, {
    message:
      'start_time must be before end_time (the end is exclusive; for a range across midnight use two ranges, e.g. "22:00"–"24:00" and "00:00"–"06:00")',
  })
  .transform((t): Range => ({ start: t.start_time, end: t.end_time }));

/** `"monday:friday"`, `"saturday"`, `"1:5"`, `"-3:-1"` → an inclusive range, checked by `value`. */
function rangeList(what: string, example: string, value: (text: string) => number | undefined) {
  const one = z.union([z.string(), z.number()]).transform((raw, ctx) => {
    const text = String(raw).trim().toLowerCase();
    const parts = text.split(':');
    const [start, end] = parts.map((p) => value(p.trim()));
    if (parts.length > 2 || start === undefined || (parts.length === 2 && end === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected ${what} or a range of them like "${example}", got "${text.slice(0, 40)}"`,
      });
      return z.NEVER;
    }
    const range = { start, end: end ?? start };
    const sameSide = range.start < 0 === range.end < 0;
    if (sameSide && range.start > range.end) {
      ctx.addIssue({ code: 'custom', message: `the range "${text}" ends before it starts` });
      return z.NEVER;
    }
    // A day counted from the start, then one from the end: wrong in every month when it is wrong in February.
    if (range.start > 0 && range.end < 0 && range.start > 28 + range.end) {
      ctx.addIssue({ code: 'custom', message: `the range "${text}" ends before it starts in some months` });
      return z.NEVER;
    }
    if (range.start < 0 && range.end > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `the range "${text}" starts from the month's end and ends from its start: write "${-range.start}:…" or "…:-1"`,
      });
      return z.NEVER;
    }
    return range;
  });
  return z.array(one).min(1);
}

const integer = (min: number, max: number) => (text: string) => {
  if (!/^-?\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
};
const named = (names: readonly string[], base: number, numeric?: (t: string) => number | undefined) => {
  return (text: string) => {
    const i = names.indexOf(text);
    return i >= 0 ? i + base : numeric?.(text);
  };
};
const dayOfMonth = (text: string) => {
  const n = integer(-31, 31)(text);
  return n === 0 ? undefined : n;
};

const Location = z.string().refine(
  (zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'expected an IANA time zone like "Europe/Zurich", "America/New_York" or "UTC"' },
);

export const TimeIntervalSpec = z
  .object({
    times: z.array(Times).min(1).optional(),
    weekdays: rangeList('a weekday', 'monday:friday', named(WEEKDAYS, 0)).optional(),
    days_of_month: rangeList(
      'a day of the month (1 to 31, or -1 for the last)',
      '1:5',
      dayOfMonth,
    ).optional(),
    months: rangeList('a month', 'may:august', named(MONTHS, 1, integer(1, 12))).optional(),
    years: rangeList('a year', '2026:2027', integer(1970, 9999)).optional(),
    location: Location.default('UTC'),
  })
  .strict();
export type TimeIntervalSpec = z.output<typeof TimeIntervalSpec>;

export const TimeInterval = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'use letters, digits, - and _'),
    time_intervals: z.array(TimeIntervalSpec).min(1),
  })
  .strict();
export type TimeInterval = z.output<typeof TimeInterval>;

export const TimeIntervals = z
  .array(TimeInterval)
  .default([])
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((interval, i) => {
      if (seen.has(interval.name))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `duplicate time interval "${interval.name}"`,
        });
      seen.add(interval.name);
    });
  });

/** Time interval names used by routes that are not declared in `time_intervals`. */
export function unknownTimeIntervalRefs(
  intervals: readonly TimeInterval[],
  routes: readonly {
    readonly mute_time_intervals?: readonly string[];
    readonly active_time_intervals?: readonly string[];
  }[],
) {
  const known = new Set(intervals.map((t) => t.name));
  const list = [...known].sort().join(', ') || 'none declared under time_intervals';
  const issues: { path: (string | number)[]; message: string }[] = [];
  routes.forEach((route, i) => {
    for (const key of ['mute_time_intervals', 'active_time_intervals'] as const)
      (route[key] ?? []).forEach((name, j) => {
        if (!known.has(name))
          issues.push({
            path: ['routes', i, key, j],
            message: `unknown time interval "${name}"; declared time intervals: ${list}`,
          });
      });
  });
  return issues;
}
