// The match times of one rule's pending count groups, by account slot, in as little memory as they can take.
//
// At 10,000 TPS a rule with 10-minute count windows holds millions of match times across 10,000 accounts. As a
// Map of account id → array of bigints, each group cost a hash-table entry (the per-rule tables alone were 0.44
// MiB each, 31 MiB for 70 rules in the peak bench's heap snapshot), an array object, its element store, and a
// 24-byte bigint per time: about 34 MiB of arrays for 450,000 groups of four times (docs/performance.md,
// section 6). Here a rule keeps one dense list indexed by an account slot shared by all rules (8 bytes a slot),
// a group of one time holds the bigint itself (the record's own, shared with the other rules it matched), and a
// group of 2..PACK_MAX times holds them packed into one bigint of 64 bits each (16 + 8 × n bytes, nothing else),
// with its count in a byte array beside the list. Times outside 0..2^64 − 1 (never a consensus timestamp, but
// the ledger is untrusted) and longer groups stay a plain array: exact either way.

/** Most times packed into one bigint; longer groups are arrays (an append to a packed value copies it whole). */
export const PACK_MAX = 32;

const BITS = 64n;
const MAX_U64 = (1n << BITS) - 1n;

/** The stored form of a group: none, one time, a packed bigint (count in `counts`), or an array. */
type Slot = bigint | readonly bigint[] | undefined;

export class RuleTimes {
  private readonly values: Slot[] = [];
  /** Per slot: how many times a packed bigint holds (2..PACK_MAX); 0 when the slot is not packed. */
  private counts = new Uint8Array(64);

  /** The times of a slot, oldest first; undefined when it holds none. */
  get(slot: number): readonly bigint[] | undefined {
    const v = this.values[slot];
    if (v === undefined || typeof v !== 'bigint') return v;
    const n = this.counts[slot] ?? 0;
    return n === 0 ? [v] : unpack(v, n);
  }

  /** The oldest time of a slot without unpacking the rest (the tick's trim asks this of every group). */
  oldest(slot: number): bigint | undefined {
    const v = this.values[slot];
    if (v === undefined || typeof v !== 'bigint') return v?.[0];
    return (this.counts[slot] ?? 0) === 0 ? v : BigInt.asUintN(64, v);
  }

  /** Replaces a slot's times (oldest first); empty or undefined clears it. */
  set(slot: number, times: readonly bigint[] | undefined): void {
    while (this.values.length <= slot) this.values.push(undefined);
    if (slot >= this.counts.length) this.grow(slot);
    this.counts[slot] = 0;
    if (times === undefined || times.length === 0) this.values[slot] = undefined;
    else if (times.length === 1) this.values[slot] = times[0] as bigint;
    else if (times.length <= PACK_MAX && times.every(fits)) {
      this.values[slot] = pack(times);
      this.counts[slot] = times.length;
    } else this.values[slot] = times.slice();
  }

  /** One past the highest slot ever set: the range to walk. */
  get length(): number {
    return this.values.length;
  }

  private grow(slot: number): void {
    const next = new Uint8Array(Math.max(slot + 1, this.counts.length * 2));
    next.set(this.counts);
    this.counts = next;
  }
}

function fits(t: bigint): boolean {
  return t >= 0n && t <= MAX_U64;
}

/** Oldest in the low 64 bits. */
function pack(times: readonly bigint[]): bigint {
  let v = 0n;
  for (let i = times.length - 1; i >= 0; i--) v = (v << BITS) | (times[i] as bigint);
  return v;
}

function unpack(v: bigint, n: number): bigint[] {
  const out = new Array<bigint>(n);
  let rest = v;
  for (let i = 0; i < n; i++) {
    out[i] = BigInt.asUintN(64, rest);
    rest >>= BITS;
  }
  return out;
}
