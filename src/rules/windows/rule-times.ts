// The match times of one rule's pending count groups, by account slot, in as little memory as they can take.
//
// At 10,000 TPS a rule with 10-minute count windows holds millions of match times across 10,000 accounts
// (docs/performance.md, section 6). As a Map of account id → array of bigints each group cost a hash-table entry,
// an array and a 24-byte bigint a time; as one packed bigint a group it still cost a 16-byte header, and every
// match made a new one, so the old generation filled with the replaced ones between collections. Here a rule
// keeps its times in one pool of 64-bit words outside the JS heap: each group owns a block of 1, 2, 3, 4, 6 …
// PACK_MAX words, rewritten in place while it fits, with freed blocks kept for reuse by size. Per slot (an
// account slot shared by all rules) the rule keeps the block's offset, its size class and how many times it
// holds: 6 bytes. Times outside 0..2^64 − 1 (never a consensus timestamp, but the ledger is untrusted) and
// longer groups stay a plain array beside the pool: exact either way.

/** Most times a pooled block holds; longer groups are arrays. */
export const PACK_MAX = 32;

const MAX_U64 = (1n << 64n) - 1n;
/** Where a 32-bit view of the pool finds a word's high half: second on little-endian platforms, first otherwise. */
const HIGH_HALF = new Uint32Array(new BigUint64Array([1n]).buffer)[0] === 1 ? 1 : 0;
/** Block sizes by class: about 1.5 times apart, so a block wastes a sixth of itself on average. */
const CLASS_SIZES = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32];
/** times → the smallest class whose blocks hold them (1 ≤ times ≤ PACK_MAX). */
const CLASS_OF = Uint8Array.from({ length: PACK_MAX + 1 }, (_, n) =>
  Math.max(
    0,
    CLASS_SIZES.findIndex((size) => size >= n),
  ),
);

export class RuleTimes {
  /** The times of every pooled group, 64 bits each, oldest first within a block. */
  private pool = new BigUint64Array(64);
  /** The same words as 32-bit halves: the trim compares high halves without making a bigint per group. */
  private halves = new Uint32Array(this.pool.buffer);
  /** Words of the pool handed out so far (blocks past it were never used). */
  private used = 0;
  /** Freed blocks' offsets, by size class. */
  private readonly free: number[][] = CLASS_SIZES.map(() => []);
  /** Per slot: its block's offset; its size class; how many times it holds (0: none pooled). */
  private start = new Int32Array(64);
  private sizeClass = new Uint8Array(64);
  private count = new Uint8Array(64);
  /** Groups that do not fit a block: more than PACK_MAX times, or a time outside 64 bits. */
  private readonly other = new Map<number, readonly bigint[]>();
  /** One past the highest slot ever set: the range startingBy walks. */
  private top = 0;

  /** The times of a slot, oldest first; undefined when it holds none. */
  get(slot: number): readonly bigint[] | undefined {
    const n = this.count[slot] ?? 0;
    if (n === 0) return this.other.get(slot);
    const at = this.start[slot] as number;
    const out = new Array<bigint>(n);
    for (let i = 0; i < n; i++) out[i] = this.pool[at + i] as bigint;
    return out;
  }

  /**
   * The slots whose oldest time is at or before `bound`, in slot order. The tick's trim asks this of every group
   * of a rule, so each oldest time's high 32 bits are compared first, without making a bigint: only a group whose
   * high half equals the bound's (a 4.3 s span) has its whole time read.
   */
  startingBy(bound: bigint): number[] {
    const out: number[] = [];
    // Pooled times are 0..2^64 − 1: none is at or before a negative bound, all are at or before one past them.
    const boundHigh = bound < 0n ? -1 : bound > MAX_U64 ? 2 ** 32 : Number(bound >> 32n);
    for (let slot = 0; slot < this.top; slot++) {
      if (this.count[slot] === 0) continue;
      const at = this.start[slot] as number;
      const high = this.halves[at * 2 + HIGH_HALF] as number;
      if (high > boundHigh || (high === boundHigh && (this.pool[at] as bigint) > bound)) continue;
      out.push(slot);
    }
    if (this.other.size === 0) return out;
    for (const [slot, times] of this.other) if ((times[0] as bigint) <= bound) out.push(slot);
    return out.sort((a, b) => a - b);
  }

  /** Replaces a slot's times (oldest first); empty or undefined clears it. */
  set(slot: number, times: readonly bigint[] | undefined): void {
    if (slot >= this.count.length) this.growSlots(slot);
    if (slot >= this.top) this.top = slot + 1;
    this.other.delete(slot);
    const n = times?.length ?? 0;
    if (times === undefined || n === 0 || n > PACK_MAX || !times.every(fits)) {
      this.release(slot);
      if (times !== undefined && n > 0) this.other.set(slot, times.slice());
      return;
    }
    const wanted = CLASS_OF[n] as number;
    const held = this.count[slot] ?? 0;
    // Kept in place while it fits and is at most two classes too big (a group that shrank gives the room back).
    if (held === 0 || (this.sizeClass[slot] ?? 0) < wanted || (this.sizeClass[slot] ?? 0) > wanted + 2) {
      this.release(slot);
      this.start[slot] = this.alloc(wanted);
      this.sizeClass[slot] = wanted;
    }
    const at = this.start[slot] as number;
    for (let i = 0; i < n; i++) this.pool[at + i] = times[i] as bigint;
    this.count[slot] = n;
  }

  /** Words of the pool in use or free for reuse (its high-water mark): for tests and the memory figures. */
  get pooledWords(): number {
    return this.used;
  }

  private release(slot: number): void {
    if ((this.count[slot] ?? 0) === 0) return;
    this.free[this.sizeClass[slot] ?? 0]?.push(this.start[slot] as number);
    this.count[slot] = 0;
  }

  private alloc(sizeClass: number): number {
    const reused = this.free[sizeClass]?.pop();
    if (reused !== undefined) return reused;
    const size = CLASS_SIZES[sizeClass] as number;
    if (this.used + size > this.pool.length) {
      const next = new BigUint64Array(Math.max(this.used + size, Math.ceil(this.pool.length * 1.5)));
      next.set(this.pool);
      this.pool = next;
      this.halves = new Uint32Array(next.buffer);
    }
    const at = this.used;
    this.used += size;
    return at;
  }

  private growSlots(slot: number): void {
    const length = Math.max(slot + 1, this.count.length * 2);
    this.start = grown(this.start, new Int32Array(length));
    this.sizeClass = grown(this.sizeClass, new Uint8Array(length));
    this.count = grown(this.count, new Uint8Array(length));
  }
}

function grown<T extends Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function fits(t: bigint): boolean {
  return t >= 0n && t <= MAX_U64;
}
