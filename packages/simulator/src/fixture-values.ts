// Decoders for the value forms of upstream spec-test setups (docs/ledger-api.md §F2.0). Setups are parsed with
// integers as bigints (parseSpecJson), so every numeric input may be a bigint, a number or a string.
import { parse, isInteger } from 'lossless-json';

export type Loose = unknown;

/** JSON text → plain data, every integer a bigint (int64-exact), other numbers as doubles. */
export function parseSpecJson(text: string): unknown {
  return parse(text, null, (value) => (isInteger(value) ? BigInt(value) : Number.parseFloat(value)));
}

/** An entity-id input: `"0.0.N"`, `"0.N"`, `"N"` or a number (an encoded id). null/undefined stay null. */
export function entityInput(value: Loose): bigint | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  const text = String(value);
  if (!text.includes('.')) return BigInt(text);
  const parts = text.split('.').map((p) => BigInt(p));
  const [num = 0n, realm = 0n, shard = 0n] = parts.reverse();
  return (shard << 54n) | (realm << 38n) | num;
}

/** An integer input (bigint, number or numeric string); `fallback` when absent or null. */
export function intInput(value: Loose, fallback: bigint): bigint {
  if (value === null || value === undefined || value === '') return fallback;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  return BigInt(String(value));
}

export function nullableInt(value: Loose): bigint | null {
  return value === null || value === undefined || value === '' ? null : intInput(value, 0n);
}

export function boolInput(value: Loose, fallback: boolean): boolean {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') return value === 'true';
  return Boolean(value);
}

const HEX = /^(0x)?[0-9A-Fa-f]+$/;

/** Bytes: hex (0x optional; odd length drops the last nibble, a single digit is left-padded), else base64. */
export function bytesInput(value: Loose): Uint8Array | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return Uint8Array.from(value.map((b) => Number(b)));
  const text = String(value);
  if (HEX.test(text)) {
    let hex = text.replace(/^0x/, '');
    if (hex.length === 1) hex = `0${hex}`;
    else if (hex.length % 2 === 1) hex = hex.slice(0, -1);
    return Uint8Array.from(Buffer.from(hex, 'hex'));
  }
  return Uint8Array.from(Buffer.from(text, 'base64'));
}

/** A closed `timestamp_range` (not ending in `,)`) marks a history row, which lookups never see. */
export function isHistoryRow(item: Record<string, unknown>): boolean {
  const range = item.timestamp_range;
  return typeof range === 'string' && !/,\s*\)$/.test(range.trim());
}

/** `setup.features.fakeTime`: ISO string, or epoch seconds when a number; result in ns. */
export function fakeTimeInput(value: Loose): bigint | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value * 1_000_000_000n;
  if (typeof value === 'number') return BigInt(Math.round(value * 1000)) * 1_000_000n;
  const ms = Date.parse(String(value));
  if (Number.isNaN(ms)) throw new Error(`features.fakeTime "${String(value)}" is not an ISO date`);
  return BigInt(ms) * 1_000_000n;
}

export function items(value: Loose): Record<string, unknown>[] {
  return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
}
