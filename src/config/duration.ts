import { z } from 'zod';
import { describeValue, quote } from './describe-value.js';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;
const EXAMPLE = 'a duration like "2s" or "10m"';
/** A value holding a `${VAR}` reference, which JSON Schema users see unexpanded: left to the loader to judge. */
export const ENV_REFERENCE = '.*\\$\\{[^}]+\\}';
/** What parseDuration accepts, as a JSON Schema pattern (or a `${VAR}` reference). */
export const DURATION_PATTERN = `^(?:(\\d+(\\.\\d+)?(ms|s|m|h|d))+$|${ENV_REFERENCE})`;

/** Milliseconds for "250ms", "2s", "10m", "26h", "7d" or compounds like "1h30m"; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  if (!text) return undefined;
  PART.lastIndex = 0;
  let total = 0;
  while (PART.lastIndex < text.length) {
    const match = PART.exec(text);
    if (!match) return undefined;
    total += Number(match[1]) * (UNITS[match[2] ?? ''] ?? NaN);
  }
  const ms = Math.round(total);
  return Number.isSafeInteger(ms) ? ms : undefined;
}

export interface DurationOptions {
  /** Smallest allowed value, as a duration string ("1ms"). */
  readonly min?: string;
  /** Largest allowed value, as a duration string ("1d"). */
  readonly max?: string;
}

/** A duration string in the config, parsed to milliseconds. */
export function duration(
  options: DurationOptions = {},
): z.ZodPipe<z.ZodString, z.ZodTransform<number, string>> {
  const typeError = (issue: { input?: unknown }): string | undefined =>
    issue.input === undefined ? undefined : `expected ${EXAMPLE}, got ${gotText(issue.input)}`;
  // The pattern is for JSON Schema users (editors, the Helm chart); the transform below is what the daemon runs.
  const written = z.string({ error: typeError }).meta({ pattern: DURATION_PATTERN });
  return written.transform((text, ctx) => {
    const ms = parseDuration(text);
    if (ms === undefined) {
      ctx.issues.push({ code: 'custom', input: text, message: `expected ${EXAMPLE}, got ${quote(text)}` });
      return z.NEVER;
    }
    const outside = bound(ms, options);
    if (outside) ctx.issues.push({ code: 'custom', input: text, message: `${outside}, got ${quote(text)}` });
    return ms;
  });
}

function bound(ms: number, options: DurationOptions): string | undefined {
  if (options.min !== undefined && ms < (parseDuration(options.min) ?? 0))
    return `must be at least ${options.min}`;
  if (options.max !== undefined && ms > (parseDuration(options.max) ?? Infinity))
    return `must be at most ${options.max}`;
  return undefined;
}

function gotText(input: unknown): string {
  if (typeof input === 'number') return `${input} (a number needs a unit: ms, s, m, h or d)`;
  return describeValue(input);
}
