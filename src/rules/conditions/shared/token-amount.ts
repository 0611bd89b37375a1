// Shared by token_debit and token_credit: the watched account's net change in one fungible token, at least `min`.
// `min` carries its unit, as HBAR amounts do: "1000000 units" (the token's smallest unit, what the ledger counts) or
// "1.5 tokens" next to `decimals:` (the token's decimals, which turn whole tokens into units). A bare number is
// refused: whether 1000000 meant units or tokens is exactly the mistake a unit prevents.
import { z } from 'zod';
import { AccountId } from '../../facts/values.js';
import type { Predicate } from './condition.js';

const QUANTITY = /^(\d+(?:_\d+)*)(?:\.(\d+))?\s*(units?|tokens?)$/i;
const MAX_INT64 = (1n << 63n) - 1n;
const ACCEPTED =
  'write "1000000 units" (the token\'s smallest unit, as the ledger counts it) or "1.5 tokens" with decimals: <the token\'s decimals> next to it';

export const TokenAmount = z
  .object({
    token_id: AccountId,
    min: z.union([z.string(), z.number()]).optional().meta({
      description: 'At least this much: "1000000 units", or "1.5 tokens" with decimals: set (default 1 unit)',
      type: 'string',
      pattern: '^\\s*[0-9][0-9_]*(\\.[0-9]+)?\\s*([uU][nN][iI][tT][sS]?|[tT][oO][kK][eE][nN][sS]?)\\s*$',
    }),
    decimals: z
      .number({
        error: (i) => `expected the token's decimals, a whole number 0–18, got ${JSON.stringify(i.input)}`,
      })
      .int()
      .min(0)
      .max(18)
      .optional()
      .meta({ description: 'The token\'s decimals: needed for a min in "tokens"' }),
  })
  .strict()
  .transform((value, ctx) => {
    const min =
      value.min === undefined ? { ok: true as const, units: 1n } : tokenUnits(value.min, value.decimals);
    if (min.ok) return { token_id: value.token_id, min: min.units };
    ctx.addIssue({ code: 'custom', path: ['min'], message: min.message, input: value.min });
    return z.NEVER;
  });
export type TokenAmount = z.output<typeof TokenAmount>;

type UnitsParse = { ok: true; units: bigint } | { ok: false; message: string };

/** A token quantity with its unit, in the token's smallest units. */
export function tokenUnits(input: string | number, decimals: number | undefined): UnitsParse {
  const fail = (message: string): UnitsParse => ({ ok: false, message });
  if (typeof input === 'number')
    return fail(`a token amount needs a unit, got the bare number ${input}; ${ACCEPTED}`);
  const text = input.trim();
  if (/^\d{1,3}(,\d{3})+/.test(text))
    return fail(
      `thousands separators are not accepted in "${input}"; write "${text.replaceAll(',', '')}" or group digits with _`,
    );
  const m = QUANTITY.exec(text);
  if (!m)
    return fail(
      /^[\d_.]+$/.test(text)
        ? `a token amount needs a unit, got "${input}"; ${ACCEPTED}`
        : `expected a token amount like "1000000 units" or "1.5 tokens", got "${input}"; ${ACCEPTED}`,
    );
  const [, grouped = '0', fraction = '', unit = ''] = m;
  const whole = grouped.replaceAll('_', '');
  if (whole.length > 19) return fail(`"${input}" is more than int64 units`);
  const units = unit.toLowerCase().startsWith('unit')
    ? unitsOf(whole, fraction)
    : tokensOf(whole, fraction, decimals);
  if (typeof units === 'string') return fail(`"${input}": ${units}`);
  if (units < 1n) return fail(`a token amount is at least 1 unit, got "${input}"`);
  return units > MAX_INT64 ? fail(`"${input}" is more than int64 units`) : { ok: true, units };
}

function unitsOf(whole: string, fraction: string): bigint | string {
  return fraction
    ? 'units are whole numbers (the smallest unit); write tokens with decimals: for fractions'
    : BigInt(whole);
}

function tokensOf(whole: string, fraction: string, decimals: number | undefined): bigint | string {
  if (decimals === undefined)
    return "an amount in tokens needs decimals: <the token's decimals> next to min (or write it in units)";
  if (fraction.length > decimals)
    return `the token has ${decimals} decimals, so at most ${decimals} digits after the point`;
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

export function tokenAmountPredicate(value: TokenAmount, sign: -1n | 1n): Predicate {
  return (f) => {
    const change = f.tokenNet(value.token_id) * sign;
    return change > 0n && change >= value.min;
  };
}
