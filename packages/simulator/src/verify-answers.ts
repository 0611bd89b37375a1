// Which answer the verification simulator gives for an address: a fixed table for tests, otherwise a bucket of
// sha256(lower-case hex address without 0x): (first two bytes, big-endian) mod 100. Documented in docs/simulator.md.
import { createHash } from 'node:crypto';

export type VerifyAnswer =
  | 'perfect'
  | 'perfect-stored'
  | 'partial'
  | 'error'
  | 'missing-files'
  | 'invalid-files'
  | 'not-verified'
  | 'rate-limited'
  | 'invalid-key';

/** One address per answer, for tests: every hex digit the same, so they are valid in any case. */
export const VERIFY_FIXED_ADDRESSES: Readonly<Record<VerifyAnswer, string>> = {
  perfect: `0x${'1'.repeat(40)}`,
  'perfect-stored': `0x${'2'.repeat(40)}`,
  partial: `0x${'3'.repeat(40)}`,
  error: `0x${'4'.repeat(40)}`,
  'missing-files': `0x${'5'.repeat(40)}`,
  'invalid-files': `0x${'6'.repeat(40)}`,
  'not-verified': `0x${'7'.repeat(40)}`,
  'rate-limited': `0x${'8'.repeat(40)}`,
  'invalid-key': `0x${'9'.repeat(40)}`,
};

/** Bucket upper bounds (exclusive) over 0..99, in order. */
export const VERIFY_BUCKETS: readonly (readonly [VerifyAnswer, number])[] = [
  ['perfect', 35],
  ['perfect-stored', 45],
  ['partial', 60],
  ['error', 68],
  ['missing-files', 72],
  ['invalid-files', 75],
  ['not-verified', 90],
  ['rate-limited', 95],
  ['invalid-key', 100],
];

const FIXED = new Map(
  Object.entries(VERIFY_FIXED_ADDRESSES).map(([answer, a]) => [a.slice(2), answer as VerifyAnswer]),
);

function normalize(address: string): string {
  return address.replace(/^0x/i, '').toLowerCase();
}

/** A deterministic number in [0, 2^32) for an address, used for the bucket and per-contract details. */
export function addressHash(address: string): number {
  return createHash('sha256').update(normalize(address), 'ascii').digest().readUInt32BE(0);
}

export function verifyAnswerFor(address: string): VerifyAnswer {
  const fixed = FIXED.get(normalize(address));
  if (fixed) return fixed;
  const bucket = (addressHash(address) >>> 16) % 100;
  for (const [answer, below] of VERIFY_BUCKETS) if (bucket < below) return answer;
  return 'invalid-key';
}
