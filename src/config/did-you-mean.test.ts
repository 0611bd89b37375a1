import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from './did-you-mean.js';

const KEYS = ['poll_interval', 'strategy', 'start', 'base_url', 'log', 'timeouts'];

describe('didYouMean', () => {
  it.each([
    ['polll_interval', 'poll_interval'],
    ['poll_intervall', 'poll_interval'],
    ['pol_interval', 'poll_interval'],
    ['stratgey', 'strategy'],
    ['base-url', 'base_url'],
    ['BASE_URL', 'base_url'],
    ['lgo', 'log'],
    ['timeout', 'timeouts'],
    ['stat', 'start'],
    ['proxy', undefined],
    ['interval', undefined],
    ['x', undefined],
  ])('%s → %s', (word, expected) => {
    const guess = didYouMean(word, KEYS);

    expect(guess).toBe(expected);
  });
});

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['abc', '', 3],
    ['kitten', 'sitting', 3],
    ['ab', 'ba', 1],
    ['stratgey', 'strategy', 1],
  ])('%s ↔ %s = %i', (a, b, expected) => {
    const distance = editDistance(a, b);

    expect(distance).toBe(expected);
  });
});
