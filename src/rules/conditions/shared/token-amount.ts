// Shared by token_debit and token_credit: the watched account's net change in one fungible token, at least `min`.
// `min` carries its unit, as HBAR amounts do: "1000000 units" (the token's smallest unit, what the ledger counts),
// "1.5 tokens" or "10000 USDC" (whole tokens, turned into units through the token's decimals). A bare number is
// refused: whether 1000000 meant units or tokens is exactly the mistake a unit prevents.
//
// Decimals come from `decimals:` next to min when it is written (decided at load, offline), else from the token's
// facts the daemon reads from the query service (src/tokens/). Until those are read the condition does not match
// (the pipeline reads them before it evaluates a record moving the token; `check` warns), and a symbol that is not
// the token's own ("10000 USDC" on a token whose symbol is USDT) never matches: rules/README.md, "Token amounts".
import { z } from 'zod';
import { AccountId } from '../../facts/values.js';
import type { Facts } from '../../facts/facts.js';
import { tokenAmountText, type UnitFacts } from '../../../tokens/token-amount-text.js';
import { unitsText } from '../../facts/amount-text.js';
import { MAX_DECIMALS } from '../../../tokens/token-info.js';
import type { ConditionWarning, Predicate } from './condition.js';

const QUANTITY = /^(\d+(?:_\d+)*)(?:\.(\d+))?\s*(\S{1,100})$/u;
const UNIT_WORD = /^units?$/i;
const TOKEN_WORD = /^tokens?$/i;
/** A symbol as written in a rule: letters, digits and a few marks, not starting with a digit. */
const SYMBOL = /^[\p{L}$][\p{L}\p{N}$._-]{0,99}$/u;
const MAX_INT64 = (1n << 63n) - 1n;
const ACCEPTED =
  'write "1000000 units" (the token\'s smallest unit, as the ledger counts it), "1.5 tokens" or "10000 USDC" (the token\'s symbol: whole tokens through its decimals)';

export const TokenAmount = z
  .object({
    token_id: AccountId,
    min: z.union([z.string(), z.number()]).optional().meta({
      description:
        'At least this much: "1000000 units", or whole tokens as "1.5 tokens" or "10000 <symbol>" (default 1 unit)',
      type: 'string',
      pattern: '^\\s*[0-9][0-9_]*(\\.[0-9]+)?\\s*\\S+\\s*$',
    }),
    decimals: z
      .number({
        error: (i) =>
          `expected the token's decimals, a whole number 0–${MAX_DECIMALS}, got ${JSON.stringify(i.input)}`,
      })
      .int()
      .min(0)
      .max(MAX_DECIMALS)
      .optional()
      .meta({
        description:
          "The token's decimals; without it an amount in tokens uses the decimals read from the query service",
      }),
  })
  .strict()
  .transform((value, ctx) => {
    if (value.min === undefined)
      return { token_id: value.token_id, text: '1 unit', ...({ min: 1n } as Amount) };
    const parsed = parseTokenAmount(value.min, value.decimals);
    if (parsed.ok) return { token_id: value.token_id, text: String(value.min).trim(), ...parsed.amount };
    ctx.addIssue({ code: 'custom', path: ['min'], message: parsed.message, input: value.min });
    return z.NEVER;
  });
export type TokenAmount = z.output<typeof TokenAmount>;

/** Whole tokens whose units are known only once the token's decimals are read. */
export interface PendingQuantity {
  readonly whole: bigint;
  /** The digits after the point, as written. */
  readonly fraction: string;
  /** The symbol the rule named, checked against the token's own; undefined for "tokens". */
  readonly symbol: string | undefined;
  /** `decimals:` as the rule wrote it, which then wins over the service's. */
  readonly decimals?: number;
}

type Amount = { min: bigint; quantity?: undefined } | { min?: undefined; quantity: PendingQuantity };
type AmountParse = { ok: true; amount: Amount } | { ok: false; message: string };

/** A token quantity with its unit: units now, or a quantity resolved through the token's decimals later. */
export function parseTokenAmount(input: string | number, decimals: number | undefined): AmountParse {
  const fail = (message: string): AmountParse => ({ ok: false, message });
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
        : `expected a token amount like "1000000 units", "1.5 tokens" or "10000 USDC", got "${input}"; ${ACCEPTED}`,
    );
  const [, grouped = '0', fraction = '', unit = ''] = m;
  const whole = grouped.replaceAll('_', '');
  if (whole.length > 19) return fail(`"${input}" is more than int64 units`);
  if (UNIT_WORD.test(unit)) {
    if (fraction)
      return fail(`"${input}": units are whole numbers (the smallest unit); write tokens for fractions`);
    return checked(input, BigInt(whole));
  }
  if (/^(h|tiny)bars?$/i.test(unit))
    return fail(`"${input}": a token amount is in the token's units, not HBAR; for HBAR use debit or credit`);
  if (!TOKEN_WORD.test(unit) && !SYMBOL.test(unit))
    return fail(`"${input}": "${unit}" is not a unit; ${ACCEPTED}`);
  const symbol = TOKEN_WORD.test(unit) ? undefined : unit;
  const quantity = {
    whole: BigInt(whole),
    fraction,
    symbol,
    ...(decimals === undefined ? {} : { decimals }),
  };
  if (BigInt(whole) === 0n && !/[1-9]/.test(fraction))
    return fail(`a token amount is above 0, got "${input}"`);
  if (decimals === undefined || quantity.symbol !== undefined) return { ok: true, amount: { quantity } };
  if (fraction.length > decimals)
    return fail(
      `"${input}": the token has ${decimals} decimals, so at most ${decimals} digits after the point`,
    );
  return checked(input, unitsOf(quantity, decimals));
}

function checked(input: string, units: bigint): AmountParse {
  if (units < 1n) return { ok: false, message: `a token amount is at least 1 unit, got "${input}"` };
  if (units > MAX_INT64) return { ok: false, message: `"${input}" is more than int64 units` };
  return { ok: true, amount: { min: units } };
}

/** Whole tokens in units, rounded up: "at least 1.5 tokens" of a 0-decimal token is at least 2 units. */
export function unitsOf(q: PendingQuantity, decimals: number): bigint {
  const scale = 10n ** BigInt(decimals);
  const digits = q.fraction.slice(0, decimals).padEnd(decimals, '0');
  const dropped = /[1-9]/.test(q.fraction.slice(decimals)) ? 1n : 0n;
  return q.whole * scale + BigInt(digits || '0') + dropped;
}

/** The min in units for this record, or undefined when it cannot be known (facts not read, another symbol). */
export function minUnits(value: TokenAmount, facts: UnitFacts | undefined): bigint | undefined {
  if (value.min !== undefined) return value.min;
  const q = value.quantity;
  if (q.symbol !== undefined && q.symbol !== facts?.symbol) return undefined;
  const decimals = q.decimals ?? facts?.decimals;
  return decimals === undefined ? undefined : unitsOf(q, decimals);
}

export function tokenAmountPredicate(value: TokenAmount, sign: -1n | 1n): Predicate {
  return (f) => {
    const change = f.tokenNet(value.token_id) * sign;
    if (change <= 0n) return false;
    const min = minUnits(value, f.event.tokenFacts?.(value.token_id));
    return min !== undefined && change >= min;
  };
}

/** The token's facts as this record saw them. */
export function factsOf(value: TokenAmount, f: Facts): UnitFacts | undefined {
  return f.event.tokenFacts?.(value.token_id);
}

/** An amount for the "why": in the token's units when its decimals are known, else `2,500,000 units`. */
export function amountWords(units: bigint, facts: UnitFacts | undefined): string {
  return facts?.decimals === undefined ? unitsText(units) : tokenAmountText(units, facts);
}

/** `check`: an amount in tokens without `decimals:` depends on the facts read at run time. */
export function tokenAmountWarnings(value: TokenAmount): readonly ConditionWarning[] {
  if (value.quantity === undefined || (value.quantity.decimals !== undefined && !value.quantity.symbol))
    return [];
  const what =
    value.quantity.symbol === undefined ? 'decimals' : `decimals and symbol (${value.quantity.symbol})`;
  return [
    {
      at: ['min'],
      message: `"${value.text}" is resolved through token ${value.token_id}'s ${what} read from the query service: the condition does not match until they are read (list the token under tokens: to read it at start, or write decimals: next to min)`,
    },
  ];
}
