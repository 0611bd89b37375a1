// Seeded pseudo-random numbers for the simulator: sfc32 (a small, fast 32-bit generator) seeded through
// splitmix32 from a number or a string. Same seed, same sequence, on every platform; never use Math.random here.

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** An integer in [min, max], both inclusive. */
  between(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Random bytes (not cryptographic). */
  bytes(length: number): Buffer;
  /** An independent generator whose sequence depends only on this one's seed and the label. */
  fork(label: string): Rng;
}

/** FNV-1a over the UTF-16 code units of a string: a stable 32-bit hash for seeds and mappings. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number | string): Rng {
  const seedText = String(seed);
  const init = splitmix32(hashString(seedText));
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  function nextU32(): number {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  }
  for (let i = 0; i < 12; i++) nextU32();
  const rng: Rng = {
    next: () => nextU32() / 4294967296,
    int: (maxExclusive) => Math.floor((nextU32() / 4294967296) * maxExclusive),
    between: (min, max) => min + Math.floor((nextU32() / 4294967296) * (max - min + 1)),
    chance: (p) => p > 0 && nextU32() / 4294967296 < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('rng.pick: the list is empty');
      return items[Math.floor((nextU32() / 4294967296) * items.length)] as T;
    },
    bytes(length) {
      const out = Buffer.allocUnsafe(length);
      for (let i = 0; i < length; i += 4) {
        const v = nextU32();
        for (let k = 0; k < 4 && i + k < length; k++) out[i + k] = (v >>> (8 * k)) & 0xff;
      }
      return out;
    },
    fork: (label) => createRng(`${seedText}/${label}`),
  };
  return rng;
}
