// Value schemas of rule test files: times and spans (test-time.ts), signed HBAR amounts and token units, and the
// transaction type and result names the ledger uses, each with a message that says what to write instead.
import { z } from 'zod';
import { describeValue } from '../config/describe-value.js';
import { didYouMean } from '../config/did-you-mean.js';
import { RESULT_NAMES } from '@ledger-sentinel/ledger-model/result-codes';
import { TRANSACTION_TYPES } from '@ledger-sentinel/ledger-model/transaction-types';
import { parseAmount } from '../rules/facts/amount.js';
import { parseSpan, parseTestTime, SPAN_EXAMPLE, TIME_EXAMPLE, type TestTime } from './test-time.js';

/** A time as written (kept to print it back in a diff) and as parsed. */
export type WrittenTime = TestTime & { readonly text: string };

export const Time = z
  .union([z.string(), z.number()], {
    error: (i) => `expected ${TIME_EXAMPLE}, got ${describeValue(i.input)}`,
  })
  .transform((v, ctx): WrittenTime => {
    if (typeof v === 'number') {
      const hint = `write it in quotes ("${v}"): as a number it loses nanoseconds`;
      ctx.addIssue({ code: 'custom', input: v, message: `expected ${TIME_EXAMPLE}, got ${v}; ${hint}` });
      return z.NEVER;
    }
    const parsed = parseTestTime(v);
    if (parsed) return { ...parsed, text: v };
    ctx.addIssue({ code: 'custom', input: v, message: `expected ${TIME_EXAMPLE}, got ${describeValue(v)}` });
    return z.NEVER;
  });

/** A positive span ("1m") in nanoseconds. */
export const Span = z
  .string({ error: (i) => `expected ${SPAN_EXAMPLE}, got ${describeValue(i.input)}` })
  .transform((text, ctx) => {
    const ns = parseSpan(text);
    if (ns !== undefined && ns > 0n) return ns;
    ctx.addIssue({
      code: 'custom',
      input: text,
      message: `expected ${SPAN_EXAMPLE}, got ${describeValue(text)}`,
    });
    return z.NEVER;
  });

const SIGNED_HBAR = 'expected a signed amount like "-20000 hbar", "+0.5 hbar" or "-5 tinybar"';

/** An HBAR transfer leg in tinybars, with its unit as in rule files: "-20000 hbar", "+0.5 hbar", "12 tinybar". */
export const SignedHbar = z
  .union([z.string(), z.number()], { error: (i) => `${SIGNED_HBAR}, got ${describeValue(i.input)}` })
  .transform((v, ctx) => {
    const negative = typeof v === 'number' ? v < 0 : v.trim().startsWith('-');
    const magnitude = typeof v === 'number' ? Math.abs(v) : v.trim().replace(/^[-+]/, '');
    const parsed = parseAmount(magnitude);
    if (parsed.ok) return negative ? -parsed.tinybar : parsed.tinybar;
    ctx.addIssue({ code: 'custom', input: v, message: `${SIGNED_HBAR}, got ${describeValue(v)}` });
    return z.NEVER;
  });

/** Token units of a transfer leg, signed: -1000000000 or "-1000000000" (quote integers beyond 2^53). */
export const SignedUnits = z
  .union([z.number().int(), z.string().regex(/^[-+]?\d{1,19}$/)], {
    error: (i) => `expected a whole signed number of token units like -1000, got ${describeValue(i.input)}`,
  })
  .transform((v, ctx) => {
    if (typeof v === 'number' && !Number.isSafeInteger(v)) {
      ctx.addIssue({ code: 'custom', input: v, message: `${v} is beyond 2^53: write it in quotes` });
      return z.NEVER;
    }
    return BigInt(typeof v === 'string' ? v.replace(/^\+/, '') : v);
  });

/** A name from a fixed list, with a did-you-mean (upper case, as the ledger writes it). */
export function ledgerName(what: string, names: readonly string[], example: string) {
  return z
    .string({ error: (i) => `expected ${what} like ${example}, got ${describeValue(i.input)}` })
    .refine((name) => names.includes(name), {
      error: (i) => {
        const guess = didYouMean(String(i.input), names);
        const hint = guess ? `did you mean ${guess}?` : `write ${what} as the ledger does, like ${example}`;
        return `unknown ${what} ${describeValue(i.input)}; ${hint}`;
      },
    });
}

export const TransactionType = ledgerName('transaction type', TRANSACTION_TYPES, 'CRYPTOTRANSFER');
export const ResultName = ledgerName('result', [...RESULT_NAMES], 'SUCCESS or INSUFFICIENT_PAYER_BALANCE');
