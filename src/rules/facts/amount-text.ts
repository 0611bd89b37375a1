// Number texts for the "why" of alerts (alert-content/explain.ts and the condition files): exact, grouped, no floats.

/** `50000000000000` → `500,000 HBAR`: exact (bigint), thousands grouped, trailing zeros dropped. */
export function hbarText(tinybar: bigint): string {
  const negative = tinybar < 0n;
  const abs = negative ? -tinybar : tinybar;
  const whole = (abs / 100_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (abs % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''} HBAR`;
}

/** A token amount in smallest units with grouping: `1,000,000 units`. */
export function unitsText(units: bigint): string {
  return `${units.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')} units`;
}
