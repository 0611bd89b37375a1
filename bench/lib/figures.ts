// One measured figure with its target, the shape shared by `npm run bench` (bench/results.json) and
// `npm run chaos`. A figure whose target cannot be checked is `pass: null`; "not implemented" is `pass: false`.
export interface Figure {
  /** Which benchmark or scenario measured it, e.g. "1 pipeline". */
  readonly suite: string;
  readonly name: string;
  readonly value: number | string;
  readonly unit?: string;
  /** The target as text, e.g. "≥ 0.5". */
  readonly target?: string;
  readonly pass: boolean | null;
  readonly note?: string;
}

export function figure(
  suite: string,
  name: string,
  value: number | string,
  extra: Partial<Omit<Figure, 'suite' | 'name' | 'value'>> = {},
): Figure {
  return { suite, name, value, pass: null, ...extra };
}

/** A figure checked against a bound: `op` is how value must compare with `bound`. */
export function checked(
  suite: string,
  name: string,
  value: number,
  op: '<=' | '>=' | '==',
  bound: number,
  extra: Partial<Pick<Figure, 'unit' | 'note'>> = {},
): Figure {
  const pass = op === '<=' ? value <= bound : op === '>=' ? value >= bound : value === bound;
  const sign = op === '<=' ? '≤' : op === '>=' ? '≥' : '=';
  return { suite, name, value, pass, target: `${sign} ${bound}`, ...extra };
}

export function notImplemented(suite: string, what: string): Figure {
  return { suite, name: what, value: 'not implemented', pass: false };
}

export function failed(suite: string, err: unknown): Figure {
  const message = err instanceof Error ? err.message : String(err);
  return {
    suite,
    name: 'ran to completion',
    value: 'error',
    pass: false,
    note: message.split('\n')[0] ?? '',
  };
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** The largest value, or NaN for none: an empty sample then fails every check instead of passing as -Infinity. */
export function maxOf(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : Math.max(...values);
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function status(f: Figure): string {
  return f.pass === null ? '' : f.pass ? 'PASS' : 'FAIL';
}

/** A plain-text table: suite, figure, value, unit, target, status. */
export function formatTable(figures: readonly Figure[]): string {
  const rows = [
    ['suite', 'figure', 'value', 'unit', 'target', 'status'],
    ...figures.map((f) => [
      f.suite,
      f.name,
      typeof f.value === 'number' ? f.value.toLocaleString('en') : f.value,
      f.unit ?? '',
      f.target ?? '',
      status(f) + (f.note ? `  (${f.note})` : ''),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) =>
      r.map((cell, c) => (c === 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  '),
    )
    .join('\n');
}
