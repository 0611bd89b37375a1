// Times in rule test files, exact to the nanosecond (bigint, never a float): an ISO date-time in UTC with up to nine
// fraction digits, a consensus timestamp ("1767225600.000000001"), or "+<span>" after the test's start. Spans are
// compounds like "30s", "1h30m", "1.5s", "250ms", "1ns".
import { isTimestamp, parseTimestamp } from '@ledger-sentinel/ledger-model/timestamp';

export type TestTime =
  { readonly kind: 'at'; readonly ns: bigint } | { readonly kind: 'after'; readonly ns: bigint };

const NS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
  d: 86_400_000_000_000n,
};
const PART = /(\d{1,12})(?:\.(\d{1,9}))?(ns|us|µs|ms|s|m|h|d)/y;
const ISO = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

export const TIME_EXAMPLE = 'a time like 2026-01-01T00:00:00Z, "1767225600.000000000" or +30s';
export const SPAN_EXAMPLE = 'a span like 30s, 1h30m, 1.5s, 250ms or 1ns';

/** Nanoseconds of a span ("1h30m"), or undefined when it is none or finer than a nanosecond. */
export function parseSpan(text: string): bigint | undefined {
  if (!text) return undefined;
  PART.lastIndex = 0;
  let total = 0n;
  while (PART.lastIndex < text.length) {
    const m = PART.exec(text);
    if (!m) return undefined;
    const unit = NS[m[3] ?? ''] ?? 0n;
    const fraction = m[2] ?? '';
    const scaled = BigInt(fraction || '0') * unit;
    const scale = 10n ** BigInt(fraction.length);
    if (scaled % scale !== 0n) return undefined;
    total += BigInt(m[1] ?? '0') * unit + scaled / scale;
  }
  return total;
}

export function parseTestTime(text: string): TestTime | undefined {
  if (text.startsWith('+')) {
    const ns = parseSpan(text.slice(1));
    return ns === undefined ? undefined : { kind: 'after', ns };
  }
  if (isTimestamp(text)) return { kind: 'at', ns: parseTimestamp(text) };
  const m = ISO.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}Z`);
  // Date.parse rolls 2026-02-30 over into March; a date that does not exist is a typo.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== m[1]) return undefined;
  return { kind: 'at', ns: BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0')) };
}

/** A time on the test's clock: "+<span>" counts from `start`. */
export function resolveTime(time: TestTime, start: bigint): bigint {
  return time.kind === 'at' ? time.ns : start + time.ns;
}

/** `+1h30m`, `+30.5s`, `+0s`: the form a test file accepts back. */
export function formatAfter(ns: bigint): string {
  if (ns === 0n) return '+0s';
  const h = ns / (NS.h as bigint);
  const m = (ns % (NS.h as bigint)) / (NS.m as bigint);
  const rest = ns % (NS.m as bigint);
  const s = rest / (NS.s as bigint);
  const fraction = (rest % (NS.s as bigint)).toString().padStart(9, '0').replace(/0+$/, '');
  const seconds = rest === 0n ? '' : `${s}${fraction ? `.${fraction}` : ''}s`;
  return `+${h ? `${h}h` : ''}${m ? `${m}m` : ''}${seconds}`;
}
