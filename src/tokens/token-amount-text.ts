// A token amount in words, exact: raw units (what the ledger counts) scaled by the token's decimals with bigint
// string arithmetic, never a float. `-293843768` of a 5-decimal USDC is `-2,938.43768 USDC`; without usable
// decimals it stays `-293,843,768 units (decimals unknown)`, so an amount is never hidden or guessed.
import { MAX_DECIMALS } from './token-info.js';

/** What the text needs of a token's facts. */
export interface UnitFacts {
  readonly decimals?: number | undefined;
  readonly symbol?: string | undefined;
  /** The name `tokens:` in the config gives the token, if any. */
  readonly displayName?: string | undefined;
}

const RAW = /^-?\d+$/;

/** `-2,938.43768 USDC`; `1.5 tokens` without a symbol; raw units, saying so, without usable decimals. */
export function tokenAmountText(amount: string | bigint, facts: UnitFacts | undefined): string {
  const text = typeof amount === 'bigint' ? amount.toString() : amount;
  if (!RAW.test(text)) return text;
  const negative = text.startsWith('-');
  const digits = text.slice(negative ? 1 : 0).replace(/^0+(?=\d)/, '');
  const sign = negative && /[1-9]/.test(digits) ? '-' : '';
  const decimals = facts?.decimals;
  if (decimals === undefined || !Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS)
    return `${sign}${group(digits)} units (decimals unknown)`;
  const unit = facts?.symbol || 'tokens';
  if (decimals === 0) return `${sign}${group(digits)} ${unit}`;
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return `${sign}${group(whole)}${fraction ? `.${fraction}` : ''} ${unit}`;
}

/** Raw units grouped by thousands, `-293,843,768`. */
export function rawUnitsText(amount: string | bigint): string {
  const text = typeof amount === 'bigint' ? amount.toString() : amount;
  if (!RAW.test(text)) return text;
  return text.startsWith('-') ? `-${group(text.slice(1))}` : group(text);
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
