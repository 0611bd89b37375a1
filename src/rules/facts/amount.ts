// HBAR amounts in rule files: "10000 hbar", "0.5 hbar", "5 tinybar", parsed with string math so nothing passes
// through a float (1 hbar = 100,000,000 tinybar). The unit is required: a bare 1000 once meant 1000 tinybar
// (0.00001 HBAR), so a rule written as "debit over 1000" alerted on every debit.

export const TINYBAR_PER_HBAR = 100_000_000n;
/** Digits may be grouped with `_` (1_000); the unit is matched separately, for a message that says what is wrong. */
const AMOUNT = /^(\d+(?:_\d+)*)(?:\.(\d+))?\s*([^\d\s]\S*)?$/u;
const UNITS: ReadonlyMap<string, 'hbar' | 'tinybar'> = new Map([
  ['hbar', 'hbar'],
  ['hbars', 'hbar'],
  ['ℏ', 'hbar'],
  ['tinybar', 'tinybar'],
  ['tinybars', 'tinybar'],
]);
const MAX_INT64 = (1n << 63n) - 1n;

export type AmountParse = { ok: true; tinybar: bigint } | { ok: false; message: string };

const ACCEPTED = `write it with its unit: "10000 hbar", "0.5 hbar" or "5 tinybar" (1 hbar = 100000000 tinybar)`;

/** Parses an amount with its unit into tinybars; a string is the error, with the fix. */
export function parseAmount(input: unknown): AmountParse {
  const fail = (why: string): AmountParse => ({ ok: false, message: why });
  if (typeof input === 'number' || typeof input === 'bigint')
    return fail(`an amount needs a unit, got the bare number ${String(input)}; ${unitFix(String(input))}`);
  if (typeof input !== 'string') return fail(`expected an amount, got ${describe(input)}; ${ACCEPTED}`);
  const text = input.trim();
  if (text.startsWith('-')) return fail(`amounts are positive, got "${input}"; ${ACCEPTED}`);
  if (/^\d{1,3}(,\d{3})+(\.\d+)?\b/.test(text))
    return fail(
      `thousands separators are not accepted in "${input}" (a comma is the decimal mark in many languages); ` +
        `write "${text.replaceAll(',', '')}", or group digits with _ like "1_000 hbar"`,
    );
  const m = AMOUNT.exec(text);
  if (!m) return fail(`expected an amount like "10000 hbar", got "${input}"; ${ACCEPTED}`);
  const [, grouped = '0', fraction, word] = m;
  const whole = grouped.replaceAll('_', '');
  if (word === undefined)
    return fail(
      `an amount needs a unit, got "${input}"; ${unitFix(`${whole}${fraction ? `.${fraction}` : ''}`)}`,
    );
  const unit = UNITS.get(word.toLowerCase());
  if (unit === undefined) return fail(`unknown unit "${word}" in "${input}"; the units are hbar and tinybar`);
  if (fraction !== undefined && unit === 'tinybar')
    return fail(
      `tinybars are whole numbers (1 tinybar = 0.00000001 hbar), got "${input}"; round it or write hbar`,
    );
  if (fraction !== undefined && fraction.length > 8)
    return fail(`HBAR has 8 decimals (1 tinybar = 0.00000001 hbar), got "${input}"`);
  if (whole.length > 19) return fail(`"${input}" is more than int64 tinybars`);
  const tinybar =
    unit === 'hbar'
      ? BigInt(whole) * TINYBAR_PER_HBAR + BigInt((fraction ?? '').padEnd(8, '0'))
      : BigInt(whole);
  return tinybar > MAX_INT64 ? fail(`"${input}" is more than int64 tinybars`) : { ok: true, tinybar };
}

function unitFix(number: string): string {
  if (number.startsWith('-')) return `amounts are positive; ${ACCEPTED}`;
  const tinybar = /^\d+$/.test(number) ? ` or "${number} tinybar"` : '';
  return `write "${number} hbar"${tinybar} (1 hbar = 100000000 tinybar)`;
}

function describe(input: unknown): string {
  return input === null
    ? 'null'
    : Array.isArray(input)
      ? 'a list'
      : typeof input === 'object'
        ? 'a mapping'
        : String(input);
}

/** Exact HBAR text of a tinybar amount: 150000000n → "1.5", -5n → "-0.00000005". */
export function formatHbar(tinybar: bigint): string {
  const sign = tinybar < 0n ? '-' : '';
  const abs = tinybar < 0n ? -tinybar : tinybar;
  const fraction = (abs % TINYBAR_PER_HBAR).toString().padStart(8, '0').replace(/0+$/, '');
  return `${sign}${abs / TINYBAR_PER_HBAR}${fraction ? `.${fraction}` : ''}`;
}
