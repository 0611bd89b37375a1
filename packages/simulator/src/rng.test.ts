import { describe, expect, it } from 'vitest';
import { createRng, hashString } from './rng.js';

describe('rng', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const a = createRng(42);
    const b = createRng('42');
    const c = createRng(43);

    const seqA = Array.from({ length: 20 }, () => a.next());
    const seqB = Array.from({ length: 20 }, () => b.next());
    const seqC = Array.from({ length: 20 }, () => c.next());

    expect(seqB).toEqual(seqA);
    expect(seqC).not.toEqual(seqA);
  });

  it('pins the first values, so a platform or refactor change that alters replays is caught', () => {
    const rng = createRng(1);

    const values = [rng.int(1000), rng.int(1000), rng.int(1000), rng.bytes(4).toString('hex')];

    expect(values).toEqual(PINNED);
  });

  it('forks independent generators that depend only on the parent seed and the label', () => {
    const parent = createRng(7);
    parent.next();

    const fork = parent.fork('faults');
    const again = createRng(7).fork('faults');

    expect(fork.next()).toBe(again.next());
    expect(createRng(7).fork('other').next()).not.toBe(createRng(7).fork('faults').next());
  });

  it('keeps int, between and chance inside their ranges and roughly uniform', () => {
    const rng = createRng('range');
    const counts = [0, 0, 0, 0];

    for (let i = 0; i < 4000; i++) counts[rng.int(4)]! += 1;
    const between = Array.from({ length: 1000 }, () => rng.between(-2, 2));
    const hits = Array.from({ length: 1000 }, () => rng.chance(0.25)).filter(Boolean).length;

    expect(counts.every((n) => n > 900 && n < 1100)).toBe(true);
    expect(Math.min(...between)).toBe(-2);
    expect(Math.max(...between)).toBe(2);
    expect(hits).toBeGreaterThan(200);
    expect(hits).toBeLessThan(300);
    expect(createRng(1).chance(0)).toBe(false);
  });

  it('hashes strings with FNV-1a', () => {
    expect(hashString('')).toBe(0x811c9dc5);
    expect(hashString('a')).toBe(0xe40c292c);
  });
});

const PINNED = [489, 865, 774, 'd8651e7c'];
