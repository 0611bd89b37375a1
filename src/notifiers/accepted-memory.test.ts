import { describe, expect, it } from 'vitest';
import { createAcceptedMemory } from './accepted-memory.js';

describe('accepted memory', () => {
  it('remembers up to its bound, forgetting the oldest first', () => {
    const memory = createAcceptedMemory(2);

    memory.add('a');
    memory.add('b');
    memory.add('a'); // refreshed: now the newest
    memory.add('c');

    expect(['a', 'b', 'c'].map((id) => memory.has(id))).toEqual([true, false, true]);
  });
});
