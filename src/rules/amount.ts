// HBAR amounts in rule files: "10000 hbar", "0.5 hbar", "5 tinybar" or plain tinybars, parsed with string math so
// nothing passes through a float (1 hbar = 100,000,000 tinybar).

export const TINYBAR_PER_HBAR = 100_000_000n;
const AMOUNT = /^\s*(\d{1,19})(?:\.(\d{1,8}))?\s*(hbar|tinybar|tinybars|ℏ)?\s*$/i;
const MAX_INT64 = (1n << 63n) - 1n;

export type AmountParse = { ok: true; tinybar: bigint } | { ok: false; message: string };

/** Parses an amount in tinybars; numbers must be safe integers (tinybars), strings may carry a unit. */
export function parseAmount(input: unknown): AmountParse {
  const got = typeof input === 'string' ? `"${input}"` : String(input);
  const fail = (hint = ''): AmountParse => ({
    ok: false,
    message: `expected an amount like "10000 hbar", "0.5 hbar" or "5 tinybar", got ${got}${hint}`,
  });
  if (typeof input === 'number' || typeof input === 'bigint') {
    if (typeof input === 'number' && !Number.isSafeInteger(input))
      return fail(' (write decimals as a "… hbar" string)');
    return BigInt(input) < 0n ? fail(' (amounts are positive)') : { ok: true, tinybar: BigInt(input) };
  }
  if (typeof input !== 'string') return fail();
  const m = AMOUNT.exec(input);
  if (!m) return fail();
  const [, whole = '0', fraction, unit = 'tinybar'] = m;
  const hbar = unit.toLowerCase() === 'hbar' || unit === 'ℏ';
  if (fraction !== undefined && !hbar) return fail(' (tinybars are whole numbers)');
  const tinybar = hbar
    ? BigInt(whole) * TINYBAR_PER_HBAR + BigInt((fraction ?? '').padEnd(8, '0'))
    : BigInt(whole);
  return tinybar > MAX_INT64 ? fail(' (more than int64 tinybars)') : { ok: true, tinybar };
}

/** Exact HBAR text of a tinybar amount: 150000000n → "1.5", -5n → "-0.00000005". */
export function formatHbar(tinybar: bigint): string {
  const sign = tinybar < 0n ? '-' : '';
  const abs = tinybar < 0n ? -tinybar : tinybar;
  const fraction = (abs % TINYBAR_PER_HBAR).toString().padStart(8, '0').replace(/0+$/, '');
  return `${sign}${abs / TINYBAR_PER_HBAR}${fraction ? `.${fraction}` : ''}`;
}
